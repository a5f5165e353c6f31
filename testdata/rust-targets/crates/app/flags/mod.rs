pub fn parse() -> bool {
    true
}

pub fn check(ok: bool) -> bool {
    ok && util_lib::helper() > 0
}
