//! A character sheet as the room keeps it: resources, then the sheet's attributes in order.
//! Making and checking sheets is the rules' part (`rules::systems`).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Resource {
    pub id: String,
    pub label: String,
    pub value: i64,
    pub max: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Character {
    pub name: String,
    pub system: String,
    pub resources: Vec<Resource>,
    /// Sheet order matters on the wire, so a Vec of pairs rather than a map.
    pub attributes: Vec<(String, i64)>,
    pub skills: Vec<(String, i64)>,
    #[serde(default)]
    pub status_effects: Vec<String>,
    #[serde(default)]
    pub avatar: Option<Value>,
}

impl Character {
    pub fn resources_json(&self) -> Value {
        Value::Array(
            self.resources
                .iter()
                .map(|r| json!({"id": r.id, "label": r.label, "value": r.value, "max": r.max}))
                .collect(),
        )
    }

    pub fn attributes_json(&self) -> Value {
        let mut map = Map::new();
        for (k, v) in &self.attributes {
            map.insert(k.clone(), json!(v));
        }
        Value::Object(map)
    }

    pub fn resource_mut(&mut self, id: &str) -> Option<&mut Resource> {
        self.resources.iter_mut().find(|r| r.id == id)
    }

    /// A skill or attribute value by case-insensitive name, with its display name.
    pub fn stat(&self, name: &str) -> Option<(String, i64)> {
        let wanted = name.trim().to_lowercase();
        self.skills
            .iter()
            .chain(self.attributes.iter())
            .find(|(k, _)| k.to_lowercase() == wanted)
            .cloned()
    }
}
