pub fn loud() -> u32 {
    shout!(crate::helper())
}
