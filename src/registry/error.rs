//! Why a publish or a registry operation was refused.

use std::fmt;

use crate::Error;
use crate::schema::SchemaError;

/// A publish that was refused; the previous version (if any) keeps serving.
#[derive(Debug)]
pub enum PublishError {
    /// The schema text could not be loaded (not JSON, an unsupported keyword, …).
    Schema(SchemaError),
    /// A sample document given to [`Registry::publish_checked`](super::Registry::publish_checked)
    /// does not validate against the new schema.
    SampleRejected {
        /// The sample's index in the list given.
        index: usize,
        /// Why it was rejected.
        error: Error,
    },
    /// A directory's schema file names what one of its
    /// [`DirectorySource::reference`](super::watch::DirectorySource::reference)s publishes:
    /// the reference keeps the name, the file is not published.
    NameTaken {
        /// The name both would publish.
        name: String,
    },
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PublishError::Schema(e) => write!(f, "schema rejected: {e}"),
            PublishError::SampleRejected { index, error } => {
                write!(f, "sample {index} does not validate: {error}")
            }
            PublishError::NameTaken { name } => {
                write!(
                    f,
                    "the name {name:?} is published by a reference of the directory"
                )
            }
        }
    }
}

impl std::error::Error for PublishError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PublishError::Schema(e) => Some(e),
            PublishError::SampleRejected { error, .. } => Some(error),
            PublishError::NameTaken { .. } => None,
        }
    }
}

impl From<SchemaError> for PublishError {
    fn from(e: SchemaError) -> PublishError {
        PublishError::Schema(e)
    }
}

/// A registry operation on a name or version that does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegistryError {
    /// No schema is published under this name.
    UnknownName(String),
    /// The name has no such version in its kept history.
    UnknownVersion {
        /// The schema name.
        name: String,
        /// The version asked for.
        version: u64,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::UnknownName(name) => write!(f, "no schema named {name:?}"),
            RegistryError::UnknownVersion { name, version } => {
                write!(f, "schema {name:?} has no version {version} in its history")
            }
        }
    }
}

impl std::error::Error for RegistryError {}
