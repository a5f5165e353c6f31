pub trait Describe {
    fn describe(&self) -> String;
}

pub trait Named {
    fn name(&self) -> String;
}

impl<T: Named + ?Sized> Describe for T {
    fn describe(&self) -> String {
        self.name()
    }
}

pub struct Dog;

impl Named for Dog {
    fn name(&self) -> String {
        "dog".into()
    }
}

impl<T> Named for Vec<T> where T: Named {
    fn name(&self) -> String {
        "many".into()
    }
}
