//! The crate's one error type; every layer may return it, so it imports nothing above `pack`.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("keys file: {0}")]
    Keys(String),
    #[error("bind: {0}")]
    Bind(String),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// A pack folder the engine's pack build would refuse, with every problem found.
    #[error("pack {0}: {problems}", problems = lines(.1))]
    Lint(String, Vec<pack::Problem>),
    #[error("story: {0}")]
    Story(String),
}

fn lines(problems: &[pack::Problem]) -> String {
    let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
    list.join("; ")
}
