mod common;

#[test]
fn runs() {
    common::setup();
    assert_eq!(app_root::Engine::new().run(), 1);
}

#[test]
fn shadowed() {
    common::only_here();
}
