//! What the command-line tools (`datagen`, `distill`, `train`, `train loss`, `tune`) share in
//! reading their arguments: the split of `--key=value` and the checked values.

/// An argument split into its option name and, for `--key=value`, the value given inline:
/// `("--key", Some("value"))`; any other argument comes back whole with `None` (its value,
/// if it takes one, is the next argument).
pub fn split_option(arg: &str) -> (&str, Option<String>) {
    match arg.split_once('=') {
        Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
        _ => (arg, None),
    }
}

/// The value `v` of option `key` as a whole number in `lo..=hi`.
pub fn int_in(key: &str, v: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(format!("{key}: '{v}' is not a whole number in {lo}..={hi}")),
    }
}

/// The value `v` of option `key` as a finite number in `lo..=hi`; `what` names the range in
/// the error ("a fraction in [0, 0.5]").
pub fn float_in(key: &str, v: &str, lo: f64, hi: f64, what: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
        _ => Err(format!("{key}: '{v}' is not {what}")),
    }
}

/// Appends the comma-separated file names of `key`'s value `v` to `files`; an empty name is
/// an error.
pub fn push_files(key: &str, v: &str, files: &mut Vec<String>) -> Result<(), String> {
    for f in v.split(',') {
        if f.is_empty() {
            return Err(format!("{key}: empty file name in '{v}'"));
        }
        files.push(f.to_string());
    }
    Ok(())
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
