//! The built-in dashboard: a static page (`dashboard/static/index.html` and
//! `app.css`, and the JavaScript bundle esbuild builds into `dashboard/dist/app.js`)
//! embedded in the binary and served on the gRPC port at `/`. The page calls `SolveSteps` over gRPC-Web on the same
//! origin, so `cargo run` needs no Node.
//! Knows nothing of gRPC: the page calls the service like any other client.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

const INDEX_HTML: &str = include_str!("../dashboard/static/index.html");
const APP_JS: &str = include_str!("../dashboard/dist/app.js");
const APP_CSS: &str = include_str!("../dashboard/static/app.css");

/// Routes of the dashboard's files.
pub fn router() -> Router {
    Router::new()
        .route("/", get(|| file("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/app.js",
            get(|| file("text/javascript; charset=utf-8", APP_JS)),
        )
        .route("/app.css", get(|| file("text/css; charset=utf-8", APP_CSS)))
}

async fn file(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // The bundle changes with the binary; a short cache keeps reloads honest.
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
}
