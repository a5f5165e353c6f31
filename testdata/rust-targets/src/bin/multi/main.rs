mod helper;

fn main() {
    helper::assist();
}
