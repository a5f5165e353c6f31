pub fn ticks() -> u32 {
    2
}
