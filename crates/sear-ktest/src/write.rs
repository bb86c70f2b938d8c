//! Serialising a [`KTest`] in the current (version 3) format.

use crate::{KTest, KTestError, CURRENT_VERSION, MAGIC};

/// Serialises `test` as a version-3 `.ktest` file.
pub(crate) fn serialize(test: &KTest) -> Result<Vec<u8>, KTestError> {
    let payload: usize = test.args.iter().map(|a| 4 + a.len()).sum::<usize>()
        + test
            .objects
            .iter()
            .map(|o| 8 + o.name.len() + o.bytes.len())
            .sum::<usize>();
    let mut out = Vec::with_capacity(MAGIC.len() + 20 + payload);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&CURRENT_VERSION.to_be_bytes());
    put_len(&mut out, test.args.len(), "argument count")?;
    for arg in &test.args {
        put_bytes(&mut out, arg.as_bytes(), "argument length")?;
    }
    out.extend_from_slice(&test.sym_argvs.to_be_bytes());
    out.extend_from_slice(&test.sym_argv_len.to_be_bytes());
    put_len(&mut out, test.objects.len(), "object count")?;
    for object in &test.objects {
        put_bytes(&mut out, object.name.as_bytes(), "object name length")?;
        put_bytes(&mut out, &object.bytes, "object size")?;
    }
    Ok(out)
}

fn put_len(out: &mut Vec<u8>, len: usize, what: &'static str) -> Result<(), KTestError> {
    let len = u32::try_from(len).map_err(|_| KTestError::TooLarge { what, value: len })?;
    out.extend_from_slice(&len.to_be_bytes());
    Ok(())
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8], what: &'static str) -> Result<(), KTestError> {
    put_len(out, bytes.len(), what)?;
    out.extend_from_slice(bytes);
    Ok(())
}
