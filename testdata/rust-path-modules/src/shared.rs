pub fn helper() -> u32 {
    4
}
