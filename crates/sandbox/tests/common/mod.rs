//! Raw HTTP helpers for the sandbox's own tests: status and JSON, nothing typed, so the tests see the
//! wire exactly as a client would.
#![allow(dead_code)]
pub use contentdesk_sandbox::testing::TestSandbox;
use serde_json::Value;

pub struct Http {
    pub base: String,
    client: reqwest::Client,
}

impl Http {
    pub fn new(sb: &TestSandbox) -> Self {
        Http {
            base: sb.base_url(),
            client: reqwest::Client::new(),
        }
    }

    pub async fn send(
        &self,
        method: &str,
        key: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req = self
            .client
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(key);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("request");
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap_or_default();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// Sends a raw body (malformed JSON tests).
    pub async fn send_raw(&self, method: &str, key: &str, path: &str, body: &str) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let resp = self
            .client
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(key)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap_or_default();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub async fn get(&self, key: &str, path: &str) -> (u16, Value) {
        self.send("GET", key, path, None).await
    }
    pub async fn post(&self, key: &str, path: &str, body: Value) -> (u16, Value) {
        self.send("POST", key, path, Some(body)).await
    }
    pub async fn patch(&self, key: &str, path: &str, body: Value) -> (u16, Value) {
        self.send("PATCH", key, path, Some(body)).await
    }
    pub async fn delete(&self, key: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        self.send("DELETE", key, path, body).await
    }
}

/// The `error` message of an error body.
pub fn msg(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}
