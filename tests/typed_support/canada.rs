//! testdata/bench/canada.json: a GeoJSON feature collection (Canada's border as polygons).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The whole collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Canada {
    #[serde(rename = "type")]
    pub kind: String,
    pub features: Vec<Feature>,
}

/// One feature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Feature {
    #[serde(rename = "type")]
    pub kind: String,
    pub properties: BTreeMap<String, String>,
    pub geometry: Geometry,
}

/// A polygon geometry: rings of `[longitude, latitude]` points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Geometry {
    #[serde(rename = "type")]
    pub kind: String,
    pub coordinates: Vec<Vec<(f64, f64)>>,
}
