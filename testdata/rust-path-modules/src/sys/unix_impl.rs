pub fn ticks() -> u32 {
    1
}
