mod common;

#[test]
fn helps() {
    common::setup();
    common::only_here();
    assert_eq!(util_lib::helper(), 1);
}
