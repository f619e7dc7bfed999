//! What an unknown enum name in a JSON body should have been: the proto3 JSON
//! mapping takes an enum value's full name (`ALGORITHM_BACKTRACKING`), and the
//! JSON reader's own error says only which name it did not know. Read only when
//! a body has already failed, so it costs a good request nothing.

use prost_reflect::{Kind, MessageDescriptor};
use serde_json::Value;

/// For every enum field of `body` (a JSON `input`, nested messages included)
/// whose value names no value of its enum: the field, the name, and the names
/// it takes.
pub(super) fn unknown_values(input: &MessageDescriptor, body: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(value) = serde_json::from_slice::<Value>(body) {
        walk(input, &value, "", &mut found);
    }
    found
}

fn walk(message: &MessageDescriptor, value: &Value, path: &str, found: &mut Vec<String>) {
    let Value::Object(fields) = value else {
        return;
    };
    for (name, value) in fields {
        let Some(field) = message
            .get_field_by_json_name(name)
            .or_else(|| message.get_field_by_name(name))
        else {
            continue;
        };
        let here = if path.is_empty() {
            field.name().to_owned()
        } else {
            format!("{path}.{}", field.name())
        };
        let items = match value {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        for item in items {
            match (field.kind(), item) {
                (Kind::Enum(enumeration), Value::String(given))
                    if enumeration.get_value_by_name(given).is_none() =>
                {
                    let names: Vec<String> = enumeration
                        .values()
                        .map(|value| value.name().to_owned())
                        .collect();
                    found.push(format!(
                        "{here} takes {} (the proto3 JSON names, in full), not {given:?}",
                        names.join(", ")
                    ));
                }
                (Kind::Message(inner), item) => walk(&inner, item, &here, found),
                _ => {}
            }
        }
    }
}
