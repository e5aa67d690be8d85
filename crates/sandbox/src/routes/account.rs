//! `GET /account/balance` and its alias `/balance`: a 200 proves the key works.
use crate::auth::Caller;
use crate::error::ApiResult;
use crate::state::AppState;
use api_types::Balance;
use axum::extract::State;
use axum::Json;
use crate::tables::accounts::read_balance;

pub(crate) async fn balance(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Balance>> {
    let conn = state.db().reader()?;
    read_balance(&conn, &caller.account_id).map(Json)
}
