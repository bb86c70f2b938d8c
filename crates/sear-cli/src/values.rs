//! clap value parsers for the numeric options whose range a plain type does not express:
//! times in seconds and ratios. Every rejection names the accepted range.

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

/// A ratio from 0 to 1.
pub fn ratio(text: &str) -> Result<f64, String> {
    let v = number(text)?;
    if !(0.0..=1.0).contains(&v) {
        return Err(format!(
            "{text} is out of range: expected a ratio from 0 to 1"
        ));
    }
    Ok(v)
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
        assert!(ratio("1.01").is_err());
        assert_eq!(ratio("0.5"), Ok(0.5));
    }
}
