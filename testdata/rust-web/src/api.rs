//! An axum router: routes and nested routers assembled in code.
use axum::routing::{get, post};
use axum::Router;

pub fn router() -> Router {
    // Bound to a variable, nested below: its routes are under `/ops`.
    let ops = Router::new().route("/audit", get(audit));
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .nest("/api", api_routes())
        .nest("/ops", ops)
        // Services mounted as routes, and what serves every path no route matches.
        .route_service("/metrics", metrics.into_service())
        .nest_service("/assets", ServeDir::new("assets"))
        .fallback(not_found)
}

async fn metrics() {}

async fn not_found() {}

fn api_routes() -> Router {
    Router::new()
        .route("/users/:id", get(show_user.layer(TraceLayer::new())).delete(remove_user))
        .route("/users", post(handlers::create))
        // An inline router nested deeper.
        .nest("/admin", Router::new().route("/stats", get(stats)))
}

async fn show_user() {}

async fn remove_user() {}

async fn stats() {}

async fn audit() {}

/// Served by the actix-web scope in `main.rs`.
pub async fn create_order() {}

mod handlers {
    pub async fn create() {}
}
