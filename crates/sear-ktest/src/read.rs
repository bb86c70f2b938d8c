//! Parsing `.ktest` bytes, with every length checked against the remaining input so that a
//! corrupt file can neither panic nor trigger a huge allocation.

use crate::{KTest, KTestError, KTestObject, CURRENT_VERSION, LEGACY_MAGIC, MAGIC};

/// Parses a whole `.ktest` file.
pub(crate) fn parse(data: &[u8]) -> Result<KTest, KTestError> {
    let mut reader = Reader { data, pos: 0 };
    let magic = reader.take(MAGIC.len(), "magic")?;
    if magic != MAGIC && magic != LEGACY_MAGIC {
        return Err(KTestError::BadMagic);
    }
    let version = reader.u32("version")?;
    if version > CURRENT_VERSION {
        return Err(KTestError::UnsupportedVersion(version));
    }

    let num_args = reader.u32("argument count")?;
    // Each argument needs at least its 4-byte length, which bounds the allocation.
    let mut args = Vec::with_capacity(reader.capacity_for(num_args, 4));
    for _ in 0..num_args {
        args.push(lossy(reader.sized_bytes("argument")?));
    }

    let (sym_argvs, sym_argv_len) = if version >= 2 {
        (reader.u32("symArgvs")?, reader.u32("symArgvLen")?)
    } else {
        (0, 0)
    };

    let num_objects = reader.u32("object count")?;
    // Each object needs at least two 4-byte lengths.
    let mut objects = Vec::with_capacity(reader.capacity_for(num_objects, 8));
    for _ in 0..num_objects {
        let name = lossy(reader.sized_bytes("object name")?);
        let bytes = reader.sized_bytes("object bytes")?.to_vec();
        objects.push(KTestObject { name, bytes });
    }

    let trailing = data.len() - reader.pos;
    if trailing != 0 {
        return Err(KTestError::TrailingBytes(trailing));
    }
    Ok(KTest {
        args,
        sym_argvs,
        sym_argv_len,
        objects,
    })
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A cursor over the input.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// A safe capacity for `count` records of at least `min_size` bytes each.
    fn capacity_for(&self, count: u32, min_size: usize) -> usize {
        (count as usize).min(self.remaining() / min_size)
    }

    fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], KTestError> {
        if len > self.remaining() {
            return Err(KTestError::Truncated {
                what,
                offset: self.pos,
                needed: len as u64,
                available: self.remaining(),
            });
        }
        let bytes = &self.data[self.pos..self.pos + len];
        self.pos += len;
        Ok(bytes)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, KTestError> {
        let bytes = self.take(4, what)?;
        Ok(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// Reads a `u32` length followed by that many bytes.
    fn sized_bytes(&mut self, what: &'static str) -> Result<&'a [u8], KTestError> {
        let len = self.u32(what)?;
        if u64::from(len) > self.remaining() as u64 {
            return Err(KTestError::Truncated {
                what,
                offset: self.pos,
                needed: u64::from(len),
                available: self.remaining(),
            });
        }
        self.take(len as usize, what)
    }
}
