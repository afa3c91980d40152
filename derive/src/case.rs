//! serde's `rename_all` rules, applied exactly as serde applies them: fields are taken as
//! `snake_case`, variants as `PascalCase`.

/// One `rename_all` convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    /// `lowercase`.
    Lower,
    /// `UPPERCASE`.
    Upper,
    /// `PascalCase`.
    Pascal,
    /// `camelCase`.
    Camel,
    /// `snake_case`.
    Snake,
    /// `SCREAMING_SNAKE_CASE`.
    ScreamingSnake,
    /// `kebab-case`.
    Kebab,
    /// `SCREAMING-KEBAB-CASE`.
    ScreamingKebab,
}

/// The rules by the names serde gives them.
pub(crate) const RULES: [(&str, RenameRule); 8] = [
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    /// The rule named `name`.
    pub(crate) fn from_name(name: &str) -> Option<RenameRule> {
        RULES.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }

    /// An enum variant (`PascalCase` in Rust) under the rule.
    pub(crate) fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }

    /// A struct field (`snake_case` in Rust) under the rule.
    pub(crate) fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => lower_first(&RenameRule::Pascal.apply_to_field(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `s` with its first character in ASCII lowercase.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;
    use super::*;

    /// serde's own table for variants.
    #[test]
    fn variants_as_serde() {
        let table = [
            (
                "Outcome",
                [
                    "outcome", "OUTCOME", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME",
                ],
            ),
            (
                "VeryTasty",
                [
                    "verytasty",
                    "VERYTASTY",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("A", ["a", "A", "a", "a", "A", "a", "A"]),
            ("Z42", ["z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"]),
        ];
        for (original, want) in table {
            let rules = [
                Lower,
                Upper,
                Camel,
                Snake,
                ScreamingSnake,
                Kebab,
                ScreamingKebab,
            ];
            for (rule, want) in rules.into_iter().zip(want) {
                assert_eq!(rule.apply_to_variant(original), want, "{rule:?} {original}");
            }
            assert_eq!(Pascal.apply_to_variant(original), original);
        }
    }

    /// serde's own table for fields.
    #[test]
    fn fields_as_serde() {
        let table = [
            (
                "outcome",
                [
                    "OUTCOME", "Outcome", "outcome", "OUTCOME", "outcome", "OUTCOME",
                ],
            ),
            (
                "very_tasty",
                [
                    "VERY_TASTY",
                    "VeryTasty",
                    "veryTasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("a", ["A", "A", "a", "A", "a", "A"]),
            ("z42", ["Z42", "Z42", "z42", "Z42", "z42", "Z42"]),
        ];
        for (original, want) in table {
            let rules = [Upper, Pascal, Camel, ScreamingSnake, Kebab, ScreamingKebab];
            for (rule, want) in rules.into_iter().zip(want) {
                assert_eq!(rule.apply_to_field(original), want, "{rule:?} {original}");
            }
            assert_eq!(Lower.apply_to_field(original), original);
            assert_eq!(Snake.apply_to_field(original), original);
        }
    }

    #[test]
    fn names() {
        for (name, rule) in RULES {
            assert_eq!(RenameRule::from_name(name), Some(rule));
        }
        assert_eq!(RenameRule::from_name("Title Case"), None);
    }
}
