pub mod child;

pub struct Update;
