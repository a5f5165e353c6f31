// Not a target: autotests stay on, but `[[test]]` names only it.rs... Cargo still
// discovers this one, as autotests is not false.
#[test]
fn other() {
    util_lib::helper();
}
