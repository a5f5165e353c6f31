mod common;

#[test]
fn helps() {
    common::setup();
    common::only_here();
    assert_eq!(util_lib::helper(), 1);
}

#[tokio::test]
// A comment between the attribute and the function.
async fn async_case() {}

#[cfg(feature = "never")]
fn not_a_test() {}
