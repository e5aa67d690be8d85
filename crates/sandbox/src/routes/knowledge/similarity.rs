//! Chunking and similarity: the sandbox's stand-in for the service's semantic search.
use super::*;

/// Splits text into chunks of about `target` characters: paragraphs are kept whole where they fit, long
/// ones split at sentence ends, then at spaces. A short paragraph (a heading) travels with what follows.
pub fn chunk_text(text: &str, target: usize) -> Vec<String> {
    let mut pieces: Vec<(String, &str)> = Vec::new();
    for para in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let mut first = true;
        for piece in split_long(para, target) {
            pieces.push((piece, if first { "\n\n" } else { " " }));
            first = false;
        }
    }
    let mut chunks: Vec<String> = Vec::new();
    let mut current = String::new();
    for (piece, sep) in pieces {
        if !current.is_empty()
            && current.chars().count() + sep.len() + piece.chars().count() > target
        {
            chunks.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push_str(sep);
        }
        current.push_str(&piece);
    }
    if !current.trim().is_empty() {
        chunks.push(current);
    }
    chunks
}

/// A paragraph longer than `target` cut at sentence ends, and a sentence longer than that at spaces.
pub(super) fn split_long(para: &str, target: usize) -> Vec<String> {
    if para.chars().count() <= target {
        return vec![para.to_string()];
    }
    let mut sentences = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = para.char_indices().collect();
    for (n, (i, c)) in chars.iter().enumerate() {
        let at_end = matches!(c, '.' | '!' | '?' | '\n')
            && chars
                .get(n + 1)
                .is_none_or(|(_, next)| next.is_whitespace());
        if at_end {
            let end = i + c.len_utf8();
            sentences.push(para[start..end].trim().to_string());
            start = end;
        }
    }
    if start < para.len() {
        sentences.push(para[start..].trim().to_string());
    }
    let mut out = Vec::new();
    for s in sentences.into_iter().filter(|s| !s.is_empty()) {
        if s.chars().count() <= target {
            out.push(s);
            continue;
        }
        let mut cur = String::new();
        for word in s.split_whitespace() {
            if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > target {
                out.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

pub(super) const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "do", "for", "from", "has", "have",
    "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "our", "so", "than",
    "that", "the", "their", "them", "then", "there", "they", "this", "to", "us", "was", "we",
    "what", "when", "which", "who", "why", "will", "with", "you", "your",
];

/// Lower-case word stems without stop words. The stemming is deliberately light (plural and common verb
/// endings) so "colours" finds "colour" and "filming" finds "film".
pub fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .filter(|w| w.chars().count() >= 2)
        .collect()
}

pub(super) fn stem(w: &str) -> String {
    let mut out = w.to_string();
    for (suffix, replacement) in [("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")] {
        if let Some(base) = w.strip_suffix(suffix) {
            if base.chars().count() >= 3 && !(suffix == "s" && base.ends_with('s')) {
                out = format!("{base}{replacement}");
                break;
            }
        }
    }
    // A final silent e goes too, so "price" and "pricing" (and "make", "making") meet.
    if out.ends_with('e') && out.chars().count() >= 4 {
        out.pop();
    }
    out
}

/// The similarity of `query` to each of `docs`, 0 to 1: 0.7 × the share of the query's terms the chunk
/// holds, each weighted by its rarity across `docs` (IDF), plus 0.3 × the TF-IDF cosine. Coverage
/// dominates because a query is a few words and a chunk a few hundred characters, where cosine alone
/// stays low even for a perfect match.
pub fn similarities(query: &str, docs: &[&str]) -> Vec<f64> {
    let q_terms: Vec<String> = {
        let mut seen = HashSet::new();
        terms(query)
            .into_iter()
            .filter(|t| seen.insert(t.clone()))
            .collect()
    };
    let doc_tf: Vec<HashMap<String, f64>> = docs
        .iter()
        .map(|d| {
            let mut tf = HashMap::new();
            for t in terms(d) {
                *tf.entry(t).or_insert(0.0) += 1.0;
            }
            tf
        })
        .collect();
    if q_terms.is_empty() {
        return vec![0.0; docs.len()];
    }
    let n = docs.len() as f64;
    let mut df: HashMap<&str, f64> = HashMap::new();
    for tf in &doc_tf {
        for t in tf.keys() {
            *df.entry(t.as_str()).or_insert(0.0) += 1.0;
        }
    }
    let idf = |t: &str| 1.0 + ((n + 1.0) / (df.get(t).copied().unwrap_or(0.0) + 1.0)).ln();
    let q_weight: f64 = q_terms.iter().map(|t| idf(t)).sum();
    let q_norm: f64 = q_terms.iter().map(|t| idf(t).powi(2)).sum::<f64>().sqrt();
    doc_tf
        .iter()
        .map(|tf| {
            if tf.is_empty() {
                return 0.0;
            }
            let covered: f64 = q_terms
                .iter()
                .filter(|t| tf.contains_key(*t))
                .map(|t| idf(t))
                .sum();
            let coverage = covered / q_weight;
            let dot: f64 = q_terms
                .iter()
                .map(|t| idf(t) * tf.get(t).copied().unwrap_or(0.0) * idf(t))
                .sum();
            let d_norm: f64 = tf
                .iter()
                .map(|(t, f)| (f * idf(t)).powi(2))
                .sum::<f64>()
                .sqrt();
            let cosine = if d_norm > 0.0 {
                dot / (q_norm * d_norm)
            } else {
                0.0
            };
            (0.7 * coverage + 0.3 * cosine).clamp(0.0, 1.0)
        })
        .collect()
}
