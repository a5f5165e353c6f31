pub fn assist() {
    app_root::engine::Engine::new();
}
