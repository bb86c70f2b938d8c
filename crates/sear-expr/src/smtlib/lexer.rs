//! Tokens of SMT-LIB2 text, and the `; sear-array` comments that carry array metadata.

use rustc_hash::FxHashMap;

use crate::array::ArrayKind;
use crate::smtlib::names::{is_symbol_char, kind_from_tag};

/// A syntax error (or an unsupported construct) at a position of the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    /// The 1-based line of the offending token.
    pub line: usize,
    /// The 1-based column (in characters) of the offending token.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// The shape of a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    LParen,
    RParen,
    /// A simple or quoted symbol (without the quotes).
    Symbol(String),
    /// A keyword without its leading `:`.
    Keyword(String),
    Numeral(String),
    Decimal(String),
    /// The digits of a `#x` literal.
    Hex(String),
    /// The digits of a `#b` literal.
    Binary(String),
    /// A string literal, unescaped.
    Str(String),
}

/// A token and where it is.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub column: usize,
    /// Byte offsets of the token in the input.
    pub start: usize,
    pub end: usize,
}

/// Metadata from a `; sear-array NAME size=N kind=K` comment.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ArrayInfo {
    pub size: Option<u64>,
    pub kind: Option<ArrayKind>,
}

/// The tokens of a script and the array metadata found in its comments (the last comment
/// for a name wins).
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub array_info: FxHashMap<String, ArrayInfo>,
}

struct Lexer<'t> {
    text: &'t str,
    chars: std::iter::Peekable<std::str::CharIndices<'t>>,
    line: usize,
    column: usize,
}

impl Lexer<'_> {
    fn bump(&mut self) -> Option<(usize, char)> {
        let (i, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some((i, c))
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn offset(&mut self) -> usize {
        self.chars.peek().map_or(self.text.len(), |&(i, _)| i)
    }

    fn take_while(&mut self, f: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if !f(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }
}

fn error(line: usize, column: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        column,
        message: message.into(),
    }
}

/// Splits `text` into tokens.
pub(crate) fn lex(text: &str) -> Result<Lexed, ParseError> {
    let mut lx = Lexer {
        text,
        chars: text.char_indices().peekable(),
        line: 1,
        column: 1,
    };
    let mut tokens = Vec::new();
    let mut array_info = FxHashMap::default();
    while let Some(c) = lx.peek() {
        let (line, column, start) = (lx.line, lx.column, lx.offset());
        let tok = match c {
            c if c.is_whitespace() => {
                lx.bump();
                continue;
            }
            ';' => {
                let comment = lx.take_while(|c| c != '\n');
                if let Some((name, info)) = array_comment(&comment, line, column)? {
                    array_info.insert(name, info);
                }
                continue;
            }
            '(' => {
                lx.bump();
                Tok::LParen
            }
            ')' => {
                lx.bump();
                Tok::RParen
            }
            '"' => {
                lx.bump();
                let mut s = String::new();
                loop {
                    match lx.bump() {
                        None => return Err(error(line, column, "unterminated string literal")),
                        Some((_, '"')) if lx.peek() == Some('"') => {
                            lx.bump();
                            s.push('"');
                        }
                        Some((_, '"')) => break,
                        Some((_, c)) => s.push(c),
                    }
                }
                Tok::Str(s)
            }
            '|' => {
                lx.bump();
                let mut s = String::new();
                loop {
                    match lx.bump() {
                        None => return Err(error(line, column, "unterminated quoted symbol")),
                        Some((_, '|')) => break,
                        Some((_, c)) => s.push(c),
                    }
                }
                Tok::Symbol(s)
            }
            '#' => {
                lx.bump();
                let (radix, digits) = match lx.bump() {
                    Some((_, 'x')) => ('x', lx.take_while(|c| c.is_ascii_hexdigit())),
                    Some((_, 'b')) => ('b', lx.take_while(|c| c == '0' || c == '1')),
                    _ => return Err(error(line, column, "expected #x or #b literal")),
                };
                if digits.is_empty() || lx.peek().is_some_and(is_symbol_char) {
                    return Err(error(line, column, "malformed bit-vector literal"));
                }
                if radix == 'x' {
                    Tok::Hex(digits)
                } else {
                    Tok::Binary(digits)
                }
            }
            ':' => {
                lx.bump();
                let name = lx.take_while(is_symbol_char);
                if name.is_empty() {
                    return Err(error(line, column, "empty keyword"));
                }
                Tok::Keyword(name)
            }
            c if c.is_ascii_digit() => {
                let mut digits = lx.take_while(|c| c.is_ascii_digit());
                let decimal = lx.peek() == Some('.');
                if decimal {
                    lx.bump();
                    let fraction = lx.take_while(|c| c.is_ascii_digit());
                    if fraction.is_empty() {
                        return Err(error(line, column, "malformed decimal"));
                    }
                    digits = format!("{digits}.{fraction}");
                }
                if lx.peek().is_some_and(is_symbol_char) {
                    return Err(error(line, column, "malformed numeral"));
                }
                if decimal {
                    Tok::Decimal(digits)
                } else {
                    Tok::Numeral(digits)
                }
            }
            c if is_symbol_char(c) => Tok::Symbol(lx.take_while(is_symbol_char)),
            c => return Err(error(line, column, format!("unexpected character {c:?}"))),
        };
        let end = lx.offset();
        tokens.push(Token {
            tok,
            line,
            column,
            start,
            end,
        });
    }
    Ok(Lexed { tokens, array_info })
}

/// Parses `; sear-array NAME size=N kind=K`; other comments give `None`.
fn array_comment(
    comment: &str,
    line: usize,
    column: usize,
) -> Result<Option<(String, ArrayInfo)>, ParseError> {
    let body = comment.trim_start_matches(';').trim_start();
    let Some(rest) = body.strip_prefix("sear-array") else {
        return Ok(None);
    };
    if !rest.starts_with(char::is_whitespace) {
        return Ok(None);
    }
    let bad = |what: &str| {
        error(
            line,
            column,
            format!("malformed sear-array comment: {what}"),
        )
    };
    let rest = rest.trim_start();
    let (name, fields) = if let Some(quoted) = rest.strip_prefix('|') {
        let close = quoted
            .find('|')
            .ok_or_else(|| bad("unterminated quoted name"))?;
        (quoted[..close].to_string(), &quoted[close + 1..])
    } else {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        (rest[..end].to_string(), &rest[end..])
    };
    if name.is_empty() {
        return Err(bad("missing array name"));
    }
    let mut info = ArrayInfo::default();
    for field in fields.split_whitespace() {
        let (key, value) = field.split_once('=').ok_or_else(|| bad(field))?;
        match key {
            "size" => info.size = Some(value.parse().map_err(|_| bad(field))?),
            "kind" => info.kind = Some(kind_from_tag(value).ok_or_else(|| bad(field))?),
            _ => return Err(bad(field)),
        }
    }
    Ok(Some((name, info)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(text)
            .unwrap()
            .tokens
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn lexes_all_token_kinds() {
        assert_eq!(
            toks("(a |b c| :k 12 1.5 #x0f #b01 \"s\"\"t\") ; comment"),
            vec![
                Tok::LParen,
                Tok::Symbol("a".into()),
                Tok::Symbol("b c".into()),
                Tok::Keyword("k".into()),
                Tok::Numeral("12".into()),
                Tok::Decimal("1.5".into()),
                Tok::Hex("0f".into()),
                Tok::Binary("01".into()),
                Tok::Str("s\"t".into()),
                Tok::RParen,
            ]
        );
    }

    #[test]
    fn reads_array_comments() {
        let lexed = lex("; sear-array |a b| size=4 kind=symbolic-input\n; sear-array c\n").unwrap();
        let info = lexed.array_info["a b"];
        assert_eq!(info.size, Some(4));
        assert_eq!(info.kind, Some(ArrayKind::SymbolicInput));
        assert!(lexed.array_info.contains_key("c"));
        let err = lex("\n  ; sear-array a size=x").err().unwrap();
        assert_eq!((err.line, err.column), (2, 3));
    }

    #[test]
    fn positions_and_errors() {
        let lexed = lex("(a\n  b)").unwrap();
        let b = &lexed.tokens[2];
        assert_eq!((b.line, b.column, b.start, b.end), (2, 3, 5, 6));
        assert!(lex("\"open").is_err());
        assert!(lex("|open").is_err());
        assert!(lex("#y").is_err());
        assert!(lex("12ab").is_err());
        assert_eq!(
            lex("a {").err().unwrap().to_string(),
            "line 1, column 3: unexpected character '{'"
        );
    }
}
