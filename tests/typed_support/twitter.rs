//! testdata/bench/twitter.json (and twitterescaped.json): a search API response.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The whole response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Twitter {
    pub statuses: Vec<Status>,
    pub search_metadata: SearchMetadata,
}

/// One tweet; a retweet holds the original (the type is recursive).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Status {
    pub metadata: Metadata,
    pub created_at: String,
    pub id: u64,
    pub id_str: String,
    pub text: String,
    pub source: String,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<u64>,
    pub in_reply_to_status_id_str: Option<String>,
    pub in_reply_to_user_id: Option<u64>,
    pub in_reply_to_user_id_str: Option<String>,
    pub in_reply_to_screen_name: Option<String>,
    pub user: User,
    pub geo: Option<Value>,
    pub coordinates: Option<Value>,
    pub place: Option<Value>,
    pub contributors: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retweeted_status: Option<Box<Status>>,
    pub retweet_count: u64,
    pub favorite_count: u64,
    pub entities: Entities,
    pub favorited: bool,
    pub retweeted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub possibly_sensitive: Option<bool>,
    pub lang: String,
}

/// Search metadata of a tweet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    pub result_type: ResultType,
    pub iso_language_code: String,
}

/// Why a tweet is in the results.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "lowercase")]
pub enum ResultType {
    Recent,
    Popular,
    Mixed,
}

/// A tweet's author.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct User {
    pub id: u64,
    pub id_str: String,
    pub name: String,
    pub screen_name: String,
    pub location: String,
    pub description: String,
    pub url: Option<String>,
    pub entities: UserEntities,
    pub protected: bool,
    pub followers_count: u64,
    pub friends_count: u64,
    pub listed_count: u64,
    pub created_at: String,
    pub favourites_count: u64,
    pub utc_offset: Option<i32>,
    pub time_zone: Option<String>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u64,
    pub lang: String,
    pub contributors_enabled: bool,
    pub is_translator: bool,
    pub is_translation_enabled: bool,
    pub profile_background_color: String,
    pub profile_background_image_url: String,
    pub profile_background_image_url_https: String,
    pub profile_background_tile: bool,
    pub profile_image_url: String,
    pub profile_image_url_https: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_banner_url: Option<String>,
    pub profile_link_color: String,
    pub profile_sidebar_border_color: String,
    pub profile_sidebar_fill_color: String,
    pub profile_text_color: String,
    pub profile_use_background_image: bool,
    pub default_profile: bool,
    pub default_profile_image: bool,
    pub following: bool,
    pub follow_request_sent: bool,
    pub notifications: bool,
}

/// URLs in a user's profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct UserEntities {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<UrlList>,
    pub description: UrlList,
}

/// A list of URL entities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct UrlList {
    pub urls: Vec<Url>,
}

/// A URL in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Url {
    pub url: String,
    pub expanded_url: String,
    pub display_url: String,
    pub indices: [u32; 2],
}

/// Entities of a tweet's text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Entities {
    pub hashtags: Vec<Hashtag>,
    pub symbols: Vec<Hashtag>,
    pub urls: Vec<Url>,
    pub user_mentions: Vec<UserMention>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<Vec<Media>>,
}

/// A hashtag (or cashtag) in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Hashtag {
    pub text: String,
    pub indices: [u32; 2],
}

/// A mention of a user in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct UserMention {
    pub screen_name: String,
    pub name: String,
    pub id: u64,
    pub id_str: String,
    pub indices: [u32; 2],
}

/// A photo or video attached to a tweet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Media {
    pub id: u64,
    pub id_str: String,
    pub indices: [u32; 2],
    pub media_url: String,
    pub media_url_https: String,
    pub url: String,
    pub display_url: String,
    pub expanded_url: String,
    #[serde(rename = "type")]
    pub kind: MediaType,
    pub sizes: Sizes,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_status_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_status_id_str: Option<String>,
}

/// What a medium is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "snake_case")]
pub enum MediaType {
    Photo,
    Video,
    AnimatedGif,
}

/// The sizes a medium comes in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Sizes {
    pub medium: Size,
    pub small: Size,
    pub thumb: Size,
    pub large: Size,
}

/// One size of a medium.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct Size {
    pub w: u32,
    pub h: u32,
    pub resize: Resize,
}

/// How a size was made.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "lowercase")]
pub enum Resize {
    Fit,
    Crop,
}

/// Metadata of the search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(deny_unknown_fields)]
pub struct SearchMetadata {
    pub completed_in: f64,
    pub max_id: u64,
    pub max_id_str: String,
    pub next_results: String,
    pub query: String,
    pub refresh_url: String,
    pub count: u64,
    pub since_id: u64,
    pub since_id_str: String,
}
