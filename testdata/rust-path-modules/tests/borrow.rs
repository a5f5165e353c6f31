#[path = "../src/shared.rs"]
mod shared;

#[test]
fn helps() {
    assert_eq!(shared::helper(), 4);
}
