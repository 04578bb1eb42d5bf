//! include/constmove.h against the crate: the same functions with the same parameter and
//! return types, the same constants with the same values, the same struct fields in the same
//! order (the layout itself is asserted by both sides: `const _` in the crate,
//! `_Static_assert` in the header, compiled by .ci/bindings with -Wall -Werror).

use constmove_capi::*;
use std::collections::BTreeMap;

fn read(relative: &str) -> String {
    let path = format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn header() -> String {
    // Comments dropped, so a commented-out declaration does not count.
    let text = read("../../include/constmove.h");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("unclosed comment") + start + 2;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A C type as the Rust type the crate must use for it.
fn rust_type(c: &str) -> String {
    let c = c.trim();
    let stars = c.matches('*').count();
    let base = c.trim_end_matches('*').trim();
    let (is_const, base) = match base.strip_prefix("const ") {
        Some(b) => (true, b.trim()),
        None => (false, base),
    };
    let base = match base {
        "uint16_t" => "u16",
        "uint32_t" => "u32",
        "uint64_t" => "u64",
        "size_t" => "usize",
        "char" => "c_char",
        "int" => "c_int",
        "void" => "()",
        other => other,
    };
    let mut out = base.to_string();
    for level in 0..stars {
        // `const T **` is a mutable pointer to a const pointer; only the innermost is const.
        let qualifier = if level == 0 && is_const {
            "*const "
        } else {
            "*mut "
        };
        out = format!("{qualifier}{out}");
    }
    out
}

/// Function name → (parameter types, return type), from the header.
fn header_functions() -> BTreeMap<String, (Vec<String>, String)> {
    let text = header();
    let mut out = BTreeMap::new();
    for decl in text.split(';') {
        // Preprocessor lines before the declaration belong to no declaration.
        let decl = decl
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ");
        let Some(open) = decl.find("cm_").filter(|_| decl.contains('(')) else {
            continue;
        };
        if decl.contains("typedef") || decl.contains('{') {
            continue;
        }
        let paren = decl.find('(').unwrap();
        if open > paren {
            continue;
        }
        let head = &decl[..paren];
        let name_at = head
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let (ret, name) = head.split_at(name_at);
        let params = &decl[paren + 1..decl.rfind(')').unwrap()];
        let params = if params.trim() == "void" {
            Vec::new()
        } else {
            params
                .split(',')
                .map(|p| {
                    // Drop the parameter's name: the last identifier.
                    let p = p.trim();
                    let cut = p
                        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap();
                    rust_type(&p[..=cut])
                })
                .collect()
        };
        out.insert(name.to_string(), (params, rust_type(ret)));
    }
    out
}

/// Function name → (parameter types, return type), from the crate's `no_mangle` functions.
fn crate_functions() -> BTreeMap<String, (Vec<String>, String)> {
    let source = read("src/lib.rs");
    let mut out = BTreeMap::new();
    for chunk in source.split("#[unsafe(no_mangle)]").skip(1) {
        let start = chunk.find("fn ").unwrap() + 3;
        let open = start + chunk[start..].find('(').unwrap();
        let name = chunk[start..open].trim().to_string();
        let close = open + chunk[open..].find(')').unwrap();
        // Pointers to pointers close no parenthesis, so the first `)` ends the list.
        let params = chunk[open + 1..close]
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                p.split_once(':')
                    .unwrap()
                    .1
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let body = chunk[close + 1..].find('{').unwrap() + close + 1;
        let ret = chunk[close + 1..body].trim();
        let ret = ret.strip_prefix("->").map_or("()", str::trim).to_string();
        out.insert(name, (params, ret));
    }
    out
}

#[test]
fn every_function_is_declared_with_the_crates_types() {
    let declared = header_functions();
    let defined = crate_functions();
    assert!(defined.len() >= 18, "found only {defined:?}");
    assert_eq!(
        declared.keys().collect::<Vec<_>>(),
        defined.keys().collect::<Vec<_>>(),
        "functions in the header (left) and the crate (right)"
    );
    for (name, signature) in &defined {
        assert_eq!(
            &declared[name], signature,
            "{name}: header (left), crate (right)"
        );
    }
}

#[test]
fn every_constant_has_the_crates_value() {
    let crate_values: BTreeMap<&str, i64> = [
        ("CM_OK", i64::from(CM_OK)),
        ("CM_ERR_NULL", i64::from(CM_ERR_NULL)),
        ("CM_ERR_FEN", i64::from(CM_ERR_FEN)),
        ("CM_ERR_MOVE_SYNTAX", i64::from(CM_ERR_MOVE_SYNTAX)),
        ("CM_ERR_ILLEGAL_MOVE", i64::from(CM_ERR_ILLEGAL_MOVE)),
        ("CM_ERR_BUFFER", i64::from(CM_ERR_BUFFER)),
        ("CM_ERR_ARGUMENT", i64::from(CM_ERR_ARGUMENT)),
        ("CM_ERR_ALLOC", i64::from(CM_ERR_ALLOC)),
        ("CM_ERR_INCOMPLETE", i64::from(CM_ERR_INCOMPLETE)),
        ("CM_ERR_PANIC", i64::from(CM_ERR_PANIC)),
        ("CM_MOVE_NORMAL", i64::from(CM_MOVE_NORMAL)),
        ("CM_MOVE_DOUBLE_PUSH", i64::from(CM_MOVE_DOUBLE_PUSH)),
        ("CM_MOVE_CASTLE", i64::from(CM_MOVE_CASTLE)),
        ("CM_MOVE_EN_PASSANT", i64::from(CM_MOVE_EN_PASSANT)),
        ("CM_MOVE_PROMOTE_KNIGHT", i64::from(CM_MOVE_PROMOTE_KNIGHT)),
        ("CM_MOVE_PROMOTE_BISHOP", i64::from(CM_MOVE_PROMOTE_BISHOP)),
        ("CM_MOVE_PROMOTE_ROOK", i64::from(CM_MOVE_PROMOTE_ROOK)),
        ("CM_MOVE_PROMOTE_QUEEN", i64::from(CM_MOVE_PROMOTE_QUEEN)),
        ("CM_OUTCOME_NONE", i64::from(CM_OUTCOME_NONE)),
        ("CM_OUTCOME_WHITE_MATES", i64::from(CM_OUTCOME_WHITE_MATES)),
        ("CM_OUTCOME_BLACK_MATES", i64::from(CM_OUTCOME_BLACK_MATES)),
        ("CM_OUTCOME_STALEMATE", i64::from(CM_OUTCOME_STALEMATE)),
        (
            "CM_OUTCOME_INSUFFICIENT_MATERIAL",
            i64::from(CM_OUTCOME_INSUFFICIENT_MATERIAL),
        ),
        ("CM_OUTCOME_FIFTY_MOVES", i64::from(CM_OUTCOME_FIFTY_MOVES)),
        ("CM_MAX_MOVES", CM_MAX_MOVES as i64),
    ]
    .into_iter()
    .collect();
    // The table above must list every constant the crate exports...
    let source = read("src/lib.rs");
    let exported: std::collections::BTreeSet<&str> = source
        .lines()
        .filter_map(|l| l.strip_prefix("pub const "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(
        exported,
        crate_values.keys().copied().collect(),
        "the crate's constants (left) and this table's (right)"
    );
    // ...and the header define each with the same value, and no other.
    let defined: BTreeMap<String, i64> = header()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("#define CM_"))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = format!("CM_{}", words.next()?);
            let value = words.next()?.parse().ok()?; // macros with arguments are skipped
            Some((name, value))
        })
        .collect();
    let expected: BTreeMap<String, i64> = crate_values
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
    assert_eq!(defined, expected, "header (left), crate (right)");
}

#[test]
fn the_structs_have_the_crates_fields_in_order() {
    let text = header();
    let source = read("src/lib.rs");
    for name in ["cm_stats", "cm_move_count"] {
        let start = text.find(&format!("typedef struct {name} {{")).unwrap();
        let body = &text[start..start + text[start..].find('}').unwrap()];
        let declared: Vec<(String, String)> = body
            .lines()
            .skip(1)
            .filter_map(|l| l.trim().strip_suffix(';'))
            .map(|l| {
                let (ty, field) = l.rsplit_once(' ').unwrap();
                (field.to_string(), rust_type(ty))
            })
            .collect();
        let start = source.find(&format!("pub struct {name} {{")).unwrap();
        let body = &source[start..start + source[start..].find('}').unwrap()];
        let defined: Vec<(String, String)> = body
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub "))
            .filter_map(|l| l.strip_suffix(','))
            .map(|l| {
                let (field, ty) = l.split_once(':').unwrap();
                // `move` is a Rust keyword.
                (
                    field.trim().trim_end_matches('_').to_string(),
                    ty.trim().to_string(),
                )
            })
            .collect();
        assert!(!defined.is_empty());
        assert_eq!(declared, defined, "{name}: header (left), crate (right)");
    }
    assert_eq!(core::mem::size_of::<cm_stats>(), 72);
    assert_eq!(core::mem::size_of::<cm_move_count>(), 16);
}
