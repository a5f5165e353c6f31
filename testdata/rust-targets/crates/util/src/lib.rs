pub fn helper() -> usize {
    1
}
