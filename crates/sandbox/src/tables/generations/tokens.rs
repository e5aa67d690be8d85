//! Output tokens (`<outputId>-<N>`, the short id): parsed, resolved to an output the caller owns, checked as references.
use super::*;

/// An output a token names, checked to be the caller's and finished.
#[derive(Debug, Clone)]
pub struct ResolvedOutput {
    /// The generation (or upload/import) id.
    pub output_id: String,
    /// 1-based output number within the generation.
    pub index: u32,
    /// Where the file is served.
    pub url: String,
    pub content_type: api_types::ContentType,
}

/// A parsed token: the full id or its 8-character prefix, and the 1-based output number if given.
#[derive(Debug, PartialEq)]
pub enum TokenId {
    Full(String),
    Prefix(String),
}

pub fn parse_token(token: &str) -> Option<(TokenId, Option<u32>)> {
    let t = token.trim().to_ascii_lowercase();
    let suffix = |rest: &str| -> Option<Option<u32>> {
        if rest.is_empty() {
            return Some(None);
        }
        let n: u32 = rest.strip_prefix('-')?.parse().ok()?;
        (n >= 1).then_some(Some(n))
    };
    if let Some(head) = t.get(..36) {
        if uuid::Uuid::parse_str(head).is_ok() && head.len() == 36 {
            if let Some(n) = suffix(&t[36..]) {
                return Some((TokenId::Full(head.to_string()), n));
            }
        }
    }
    let head = t.get(..8)?;
    if !head.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    suffix(&t[8..]).map(|n| (TokenId::Prefix(head.to_string()), n))
}

/// Resolves an output token (`<uuid>`, `<uuid>-<N>` with N from 1, or the uuid's first 8 characters,
/// optionally `-N`) owned by `account_id`. Unknown or another account's: 404 "Output not found". Not a
/// token, or not finished: 400 naming `field`. Covers uploads and imports too.
pub fn resolve_output(
    conn: &rusqlite::Connection,
    account_id: &str,
    token: &str,
    field: &str,
) -> crate::error::ApiResult<ResolvedOutput> {
    let not_found = || ApiError::not_found("Output");
    let (id, index) = parse_token(token).ok_or_else(|| {
        ApiError::bad(
            field,
            format!("`{field}` must be an http(s) URL or an output token (<uuid>, <uuid>-N or the first 8 characters of the uuid); got `{token}`"),
        )
    })?;
    let id = match id {
        TokenId::Full(id) => {
            let owner: Option<String> = conn
                .cached_row(
                    "SELECT account_id FROM generations WHERE id = ?1",
                    [&id],
                    |r| r.get(0),
                )
                .optional()?;
            // Another account's output is "not found", never "forbidden": its existence is not disclosed.
            if owner.as_deref() != Some(account_id) {
                return Err(not_found());
            }
            id
        }
        TokenId::Prefix(prefix) => {
            // Short tokens match only the caller's own outputs, so a prefix never reaches another account.
            let mut stmt = conn.prepare_cached("SELECT id FROM generations WHERE account_id = ?1 AND substr(id, 1, 8) = ?2 LIMIT 2")?;
            let ids: Vec<String> = stmt
                .query_map(params![account_id, prefix], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            match ids.as_slice() {
                [] => return Err(not_found()),
                [one] => one.clone(),
                _ => {
                    return Err(ApiError::bad(
                        field,
                        format!("`{field}`: the short token `{token}` matches more than one output; use the full id"),
                    ))
                }
            }
        }
    };
    settle(conn, &id)?;
    let job = load_job(conn, &id)?.ok_or_else(not_found)?;
    let index = index.unwrap_or(1);
    if index > job.num_outputs {
        return Err(not_found());
    }
    match job.status {
        GenerationStatus::Completed => {}
        GenerationStatus::Failed => {
            return Err(ApiError::bad(field, format!("`{field}`: output `{token}` failed and has no file to use")))
        }
        _ => {
            return Err(ApiError::bad(
                field,
                format!("`{field}`: output `{token}` is still processing; poll GET /studio/generate/{id} until it completes, then retry"),
            ))
        }
    }
    let row = output_rows(conn, &id)?
        .into_iter()
        .find(|(i, _, _)| *i == index)
        .ok_or_else(not_found)?;
    let origin = files::recorded_origin(conn);
    Ok(ResolvedOutput {
        output_id: id,
        index,
        url: output_url(&origin, &row.1, &row.2),
        content_type: job.content_type,
    })
}

/// A reference value: an http(s) URL, or an output token of the caller's holding `expected` media.
pub fn check_reference(
    conn: &Connection,
    account_id: &str,
    value: &str,
    field: &str,
    expected: ContentType,
) -> ApiResult<()> {
    let v = value.trim();
    if v.starts_with("http://") || v.starts_with("https://") {
        let rest = v.split_once("://").map(|(_, r)| r).unwrap_or("");
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if host.is_empty() || v.chars().any(char::is_whitespace) {
            return Err(ApiError::bad(
                field,
                format!("`{field}` is not a valid URL: `{value}`"),
            ));
        }
        return Ok(());
    }
    let out = resolve_output(conn, account_id, v, field)?;
    if out.content_type != expected {
        return Err(ApiError::bad(
            field,
            format!(
                "`{field}` needs {} media, but output `{value}` is {}",
                expected.as_str(),
                out.content_type.as_str()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_parse_in_every_documented_form() {
        let id = "0b7e2a52-3c1d-4f7e-9a55-8d2f7c0e9b11";
        assert_eq!(parse_token(id), Some((TokenId::Full(id.into()), None)));
        assert_eq!(
            parse_token(&format!("{id}-2")),
            Some((TokenId::Full(id.into()), Some(2)))
        );
        assert_eq!(
            parse_token(&id.to_uppercase()),
            Some((TokenId::Full(id.into()), None))
        );
        assert_eq!(
            parse_token("0b7e2a52"),
            Some((TokenId::Prefix("0b7e2a52".into()), None))
        );
        assert_eq!(
            parse_token("0b7e2a52-3"),
            Some((TokenId::Prefix("0b7e2a52".into()), Some(3)))
        );
        assert_eq!(parse_token(&format!("{id}-0")), None);
        assert_eq!(parse_token("not-a-token"), None);
        assert_eq!(parse_token("0b7e2a52x"), None);
        assert_eq!(parse_token("éééééééééééééééééééééééééééééééééééééé"), None);
    }
}
