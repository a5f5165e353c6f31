pub fn total(xs: &[u32]) -> u32 {
    xs.iter().sum()
}

pub fn helper() -> u32 {
    1
}

pub fn report(xs: &[u32]) -> String {
    println!("{} {}", total(xs), helper());
    format!("{:?}", vec![helper(), unknown_fn(2)])
}
