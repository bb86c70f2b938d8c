//! Value parsers of the command-line options of [`crate::ArrayOptConfig`] (the `cli`
//! feature). Every rejection names the accepted range.

/// A ratio from 0 to 1.
pub fn ratio(text: &str) -> Result<f64, String> {
    let v = text
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("'{text}' is not a finite number"))?;
    if !(0.0..=1.0).contains(&v) {
        return Err(format!(
            "{text} is out of range: expected a ratio from 0 to 1"
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::ratio;

    #[test]
    fn ranges() {
        for bad in ["-0.1", "1.01", "inf", "nan", "x", ""] {
            assert!(ratio(bad).is_err(), "{bad}");
        }
        assert_eq!(ratio("0.5"), Ok(0.5));
        assert_eq!(ratio("1"), Ok(1.0));
    }
}
