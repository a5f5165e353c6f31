pub fn setup() {}

pub fn only_here() {}
