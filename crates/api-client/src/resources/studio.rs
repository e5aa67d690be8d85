//! Generation: quotes, generate (with the `outputId` idempotency key), reference boards, status and wait.
//! The `outputId` is minted here when the caller gave none, sent in the body, and the same bytes go out on
//! every retry, so a retried generate never charges twice (facts 3.1).
use crate::error::Result;
use crate::http::{seg, Call};
use crate::wait::{self, WaitOptions, WaitOutcome};
use crate::Client;
use api_types::{BoardRequest, CostEstimate, GenerateRequest, GenerateResult, Generation};
use reqwest::Method;

pub struct StudioHandler<'c> {
    pub(crate) client: &'c Client,
}

impl StudioHandler<'_> {
    /// The price of a generation; nothing runs and nothing is charged (`getCost: true`).
    pub async fn quote(&self, req: &GenerateRequest) -> Result<CostEstimate> {
        let body = GenerateRequest {
            get_cost: Some(true),
            ..req.clone()
        };
        self.client
            .call(Call::new(Method::POST, "/studio/generate").json(&body)?)
            .await
    }

    /// Starts (or, within the smart-wait, finishes) a generation. The reply's `outputId` is the one sent:
    /// the caller's, or a fresh UUID. `idempotentReplay` says the job existed already.
    pub async fn generate(&self, req: &GenerateRequest) -> Result<GenerateResult> {
        let body = GenerateRequest {
            output_id: Some(output_id_or_new(&req.output_id)),
            get_cost: None,
            ..req.clone()
        };
        self.client
            .call(
                Call::new(Method::POST, "/studio/generate")
                    .json(&body)?
                    .idempotent(true),
            )
            .await
    }

    /// A reference board (a pipeline, not a registry model), with the same idempotency as `generate`.
    pub async fn board(&self, req: &BoardRequest) -> Result<GenerateResult> {
        let body = BoardRequest {
            output_id: Some(output_id_or_new(&req.output_id)),
            get_cost: None,
            ..req.clone()
        };
        self.client
            .call(
                Call::new(Method::POST, "/studio/reference-board")
                    .json(&body)?
                    .idempotent(true),
            )
            .await
    }

    pub async fn quote_board(&self, req: &BoardRequest) -> Result<CostEstimate> {
        let body = BoardRequest {
            get_cost: Some(true),
            ..req.clone()
        };
        self.client
            .call(Call::new(Method::POST, "/studio/reference-board").json(&body)?)
            .await
    }

    /// One read of a render's state.
    pub async fn status(&self, output_id: &str) -> Result<Generation> {
        self.client
            .call(Call::get(format!("/studio/generate/{}", seg(output_id))))
            .await
    }

    /// Polls until the render completes (Ok), fails (`GenerationFailed`), the deadline passes
    /// (`GenerationTimeout`) or the token is cancelled (`Cancelled`). See `wait.rs` for the cadence.
    pub async fn wait(&self, output_id: &str, opts: WaitOptions) -> Result<WaitOutcome> {
        wait::wait(self.client, output_id, opts).await
    }
}

fn output_id_or_new(given: &Option<String>) -> String {
    match given {
        Some(id) if !id.trim().is_empty() => id.clone(),
        _ => uuid::Uuid::new_v4().to_string(),
    }
}
