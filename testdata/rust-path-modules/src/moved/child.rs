pub fn depth() -> u32 {
    3
}
