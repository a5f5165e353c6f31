pub struct Engine;

impl Engine {
    pub fn new() -> Engine {
        Engine
    }

    pub fn run(&self) -> usize {
        util_lib::helper()
    }
}
