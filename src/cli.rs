//! What the command-line tools (`datagen`, `distill`, `train`, `tune`) share in reading their
//! arguments.

/// An argument split into its option name and, for `--key=value`, the value given inline:
/// `("--key", Some("value"))`; any other argument comes back whole with `None` (its value,
/// if it takes one, is the next argument).
pub fn split_option(arg: &str) -> (&str, Option<String>) {
    match arg.split_once('=') {
        Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
        _ => (arg, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_split_at_the_first_equals_sign() {
        assert_eq!(split_option("--seed=9"), ("--seed", Some("9".into())));
        assert_eq!(
            split_option("--net=a=b.nnue"),
            ("--net", Some("a=b.nnue".into()))
        );
        assert_eq!(split_option("--seed"), ("--seed", None));
        assert_eq!(split_option("in=put.bin"), ("in=put.bin", None));
        assert_eq!(split_option("-h"), ("-h", None));
    }
}
