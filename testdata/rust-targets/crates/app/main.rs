mod flags;

use app_root::Engine;

fn main() {
    let parsed = crate::flags::parse();
    Engine::new().run();
    flags::check(parsed);
}
