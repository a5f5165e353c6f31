use actix_web::{get, post, route, web, App, HttpResponse};

mod api;

#[get("/users/{id}")]
async fn user(id: web::Path<u32>) -> HttpResponse {
    HttpResponse::Ok().body(id.to_string())
}

/// Creates a user.
#[actix_web::post("/users")]
// The route above is this function's.
async fn create() -> HttpResponse {
    HttpResponse::Created().finish()
}

#[route("/health", method = "GET", method = "HEAD")]
async fn health() -> HttpResponse {
    HttpResponse::Ok().finish()
}

#[test]
fn not_a_route() {}

/// The actix-web application's routes: `user` is served under `/v1`.
fn config(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/v1")
            .service(user)
            .route("/ping", web::get().to(ping))
            .service(web::resource("/orders").route(web::post().to(api::create_order))),
    );
}

/// The axum side: the `api` module's router, under `/v2` (a router of another file).
fn axum_app() -> axum::Router {
    axum::Router::new().nest("/v2", api::router())
}

async fn ping() -> HttpResponse {
    HttpResponse::Ok().finish()
}

fn main() {
    let _app = App::new().configure(config).service(create);
}
