//! testdata/bench/book.json.

use serde::{Deserialize, Serialize};

/// The whole document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Book {
    pub id: u64,
    pub ids: Vec<i32>,
    pub title: String,
    pub titles: Vec<String>,
    pub price: f64,
    pub prices: Vec<f64>,
    pub hot: bool,
    pub hots: Vec<bool>,
    pub author: Author,
    pub authors: Vec<Author>,
    pub weights: Vec<f64>,
}

/// One author.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Author {
    pub name: String,
    pub age: u32,
    pub male: bool,
}
