//! `define-fun` with parameters (macros) and `define-sort` (sort aliases), expanded at parse
//! time: a macro application evaluates its arguments, binds them to the parameters in a
//! scope of their own (the caller's `let` bindings are not visible in the body, as SMT-LIB's
//! lexical scoping says) and evaluates the body's tokens again.

use crate::smtlib::lexer::{ParseError, Tok};
use crate::smtlib::ops::{SortSpec, Val};
use crate::smtlib::parse::Parser;

/// A function defined with parameters.
#[derive(Clone, Debug)]
pub(crate) struct Macro {
    params: Vec<(String, SortSpec)>,
    result: SortSpec,
    /// The token where the body starts.
    body: usize,
}

impl Parser<'_> {
    /// `(define-fun name ((p sort) ...) sort body)` with at least one parameter.
    pub(crate) fn define_macro(
        &mut self,
        name_at: usize,
        params_at: usize,
        sort_at: usize,
        body_at: usize,
    ) -> Result<(), ParseError> {
        let name = match &self.toks[name_at].tok {
            Tok::Symbol(s) => s.clone(),
            _ => return Err(self.err(name_at, "expected a symbol")),
        };
        let mut params = Vec::new();
        for p in self.elements(params_at) {
            let parts = if self.toks[p].tok == Tok::LParen {
                self.elements(p)
            } else {
                Vec::new()
            };
            let [pname, psort] = parts[..] else {
                return Err(self.err(p, "a parameter is (name sort)"));
            };
            let pname = match &self.toks[pname].tok {
                Tok::Symbol(s) => s.clone(),
                _ => return Err(self.err(pname, "expected a parameter name")),
            };
            params.push((pname, self.sort(psort)?));
        }
        let result = self.sort(sort_at)?;
        if self.globals.contains_key(&name) || self.macros.contains_key(&name) {
            return Err(self.err(name_at, format!("{name} is already declared")));
        }
        // The body is checked at each application (its sort against the declared one).
        let m = Macro {
            params,
            result,
            body: body_at,
        };
        self.macros.insert(name.clone(), m);
        self.declared_in_scope(&name);
        Ok(())
    }

    /// Whether `name` is a macro.
    pub(crate) fn is_macro(&self, name: &str) -> bool {
        self.macros.contains_key(name)
    }

    /// The value of the macro `name` applied to `args` (the application is at `at`).
    pub(crate) fn apply_macro(
        &mut self,
        name: &str,
        args: Vec<Val>,
        at: usize,
    ) -> Result<Val, ParseError> {
        let m = self.macros.get(name).cloned().expect("a macro");
        self.expand(&m, name, args, at)
    }

    fn expand(
        &mut self,
        m: &Macro,
        name: &str,
        args: Vec<Val>,
        at: usize,
    ) -> Result<Val, ParseError> {
        if args.len() != m.params.len() {
            return Err(self.err(
                at,
                format!(
                    "{name} expects {} arguments, got {}",
                    m.params.len(),
                    args.len()
                ),
            ));
        }
        for ((pname, sort), v) in m.params.iter().zip(&args) {
            if !sort.matches(v) {
                return Err(self.err(
                    at,
                    format!("{name}: argument {pname} has sort {}", v.sort_name()),
                ));
            }
        }
        let mut scope = rustc_hash::FxHashMap::default();
        for ((pname, _), v) in m.params.iter().zip(args) {
            scope.insert(pname.clone(), vec![v]);
        }
        let outer = std::mem::replace(&mut self.locals, scope);
        let value = self.term(m.body);
        self.locals = outer;
        let value = value?;
        if !m.result.matches(&value) {
            return Err(self.err(
                m.body,
                format!("define-fun {name}: the body has sort {}", value.sort_name()),
            ));
        }
        Ok(value)
    }

    /// `(define-sort name () sort)`: an alias. Sorts with parameters are refused.
    pub(crate) fn define_sort(
        &mut self,
        name_at: usize,
        params_at: usize,
        sort_at: usize,
    ) -> Result<(), ParseError> {
        let name = match &self.toks[name_at].tok {
            Tok::Symbol(s) => s.clone(),
            _ => return Err(self.err(name_at, "expected a symbol")),
        };
        if self.toks[params_at].tok != Tok::LParen || !self.elements(params_at).is_empty() {
            return Err(self.err(params_at, "define-sort with parameters is not supported"));
        }
        let sort = self.sort(sort_at)?;
        if self.sort_aliases.contains_key(&name) {
            return Err(self.err(name_at, format!("sort {name} is already defined")));
        }
        self.sort_aliases.insert(name.clone(), sort);
        self.declared_in_scope(&name);
        Ok(())
    }
}
