//! Value parsers of the command-line options that the configuration types declare (the
//! `cli` feature): times in seconds and on/off switches. sear-engine uses them too. Every
//! rejection names the accepted range.

use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// The longest time any option accepts: 10^9 seconds (about 31 years); larger values
/// cannot be represented as a timeout.
pub const MAX_SECONDS: f64 = 1e9;

fn number(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("'{text}' is not a finite number"))
}

/// Seconds from 0 to [`MAX_SECONDS`].
pub fn seconds(text: &str) -> Result<f64, String> {
    let v = number(text)?;
    if !(0.0..=MAX_SECONDS).contains(&v) {
        return Err(format!(
            "{text} is out of range: expected seconds from 0 to {MAX_SECONDS:.0}"
        ));
    }
    Ok(v)
}

/// Seconds above 0, up to [`MAX_SECONDS`].
pub fn positive_seconds(text: &str) -> Result<f64, String> {
    let v = number(text)?;
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!(
            "{text} is out of range: expected seconds above 0, up to {MAX_SECONDS:.0}"
        ));
    }
    Ok(v)
}

/// A duration of [`seconds`].
pub fn duration(text: &str) -> Result<Duration, String> {
    seconds(text).map(Duration::from_secs_f64)
}

/// A duration of [`positive_seconds`].
pub fn positive_duration(text: &str) -> Result<Duration, String> {
    positive_seconds(text).map(Duration::from_secs_f64)
}

/// A time limit of [`seconds`], where 0 means none.
pub fn limit(text: &str) -> Result<Option<Duration>, String> {
    Ok(Some(duration(text)?).filter(|d| !d.is_zero()))
}

/// A duration as an option's value shows it (`[default: 0.1]`).
pub fn shown_seconds(d: Duration) -> String {
    d.as_secs_f64().to_string()
}

/// The values of an on/off switch: `on` or `off`, and KLEE's `true`/`false` and `1`/`0`
/// (not listed in the help). The switches are written `--flag[=on|off]`: the bare flag
/// means on.
pub fn switch() -> impl TypedValueParser<Value = bool> {
    let hidden = |name: &'static str| PossibleValue::new(name).hide(true);
    PossibleValuesParser::new([
        PossibleValue::new("on"),
        PossibleValue::new("off"),
        hidden("true"),
        hidden("false"),
        hidden("1"),
        hidden("0"),
    ])
    .map(|value| matches!(value.as_str(), "on" | "true" | "1"))
}

/// A switch's value as the help shows it (`on` or `off`).
pub fn shown_switch(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        for bad in ["-1", "inf", "nan", "1e300", "x", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
            assert!(positive_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("0"), Ok(0.0));
        assert!(positive_seconds("0").is_err());
        assert_eq!(positive_seconds("1.5"), Ok(1.5));
        assert_eq!(seconds("1e9"), Ok(1e9));
        assert_eq!(limit("0"), Ok(None));
        assert_eq!(limit("2"), Ok(Some(Duration::from_secs(2))));
    }

    #[test]
    fn switches() {
        let cmd = clap::Command::new("t").arg(
            clap::Arg::new("s")
                .long("s")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("on")
                .value_parser(switch()),
        );
        let value = |args: &[&str]| {
            cmd.clone()
                .try_get_matches_from(args)
                .map(|m| m.get_one::<bool>("s").copied())
        };
        assert_eq!(value(&["t", "--s"]).unwrap(), Some(true));
        assert_eq!(value(&["t", "--s=off"]).unwrap(), Some(false));
        assert_eq!(value(&["t", "--s=false"]).unwrap(), Some(false));
        assert_eq!(value(&["t", "--s=1"]).unwrap(), Some(true));
        assert!(value(&["t", "--s=maybe"]).is_err());
    }
}
