//! testdata/bench/citm_catalog.json: a ticketing catalogue (maps keyed by numeric ids).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The whole catalogue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CitmCatalog {
    pub area_names: BTreeMap<String, String>,
    pub audience_sub_category_names: BTreeMap<String, String>,
    pub block_names: BTreeMap<String, String>,
    pub events: BTreeMap<String, Event>,
    pub performances: Vec<Performance>,
    pub seat_category_names: BTreeMap<String, String>,
    pub sub_topic_names: BTreeMap<String, String>,
    pub subject_names: BTreeMap<String, String>,
    pub topic_names: BTreeMap<String, String>,
    pub topic_sub_topics: BTreeMap<String, Vec<u64>>,
    pub venue_names: BTreeMap<String, String>,
}

/// One event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Event {
    pub description: Option<String>,
    pub id: u64,
    pub logo: Option<String>,
    pub name: String,
    pub sub_topic_ids: Vec<u64>,
    pub subject_code: Option<String>,
    pub subtitle: Option<String>,
    pub topic_ids: Vec<u64>,
}

/// One performance of an event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Performance {
    pub event_id: u64,
    pub id: u64,
    pub logo: Option<String>,
    pub name: Option<String>,
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
    pub seat_map_image: Option<String>,
    pub start: u64,
    pub venue_code: String,
}

/// A price for one audience in one seat category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Price {
    pub amount: u64,
    pub audience_sub_category_id: u64,
    pub seat_category_id: u64,
}

/// The areas of one seat category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeatCategory {
    pub areas: Vec<Area>,
    pub seat_category_id: u64,
}

/// One area and its blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Area {
    pub area_id: u64,
    pub block_ids: Vec<u64>,
}
