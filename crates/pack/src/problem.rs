//! One thing the engine's pack build would refuse, where it is, and how to fix it.

use serde::Serialize;

use crate::yaml::Node;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Pack-relative path, `/`-separated.
    pub file: String,
    /// 1-based; 0 when the problem is the file as a whole.
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// One line on what to change.
    pub hint: String,
}

impl Problem {
    pub fn at(
        file: &str,
        node: &Node,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Self {
        Problem {
            file: file.to_string(),
            line: node.line,
            column: node.column,
            message: message.into(),
            hint: hint.into(),
        }
    }

    pub fn file(file: &str, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Problem {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        } else {
            write!(f, "{}: {}", self.file, self.message)
        }
    }
}

/// Problems found while reading one file, in the order they were met.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    pub fn push(&mut self, p: Problem) {
        self.0.push(p);
    }

    pub fn at(
        &mut self,
        file: &str,
        node: &Node,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.0.push(Problem::at(file, node, message, hint));
    }
}
