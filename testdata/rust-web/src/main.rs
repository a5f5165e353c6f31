use actix_web::{get, post, route, web, HttpResponse};

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

fn main() {}
