mod common;

#[test]
fn runs() {
    common::setup();
    assert_eq!(app_root::Engine::new().run(), 1);
}
