fn main() {
    app_root::Engine::new().run();
}
