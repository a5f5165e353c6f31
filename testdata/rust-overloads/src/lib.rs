use std::fmt;

pub trait Matches {
    fn count(&self) -> usize;
}

pub trait Sink {
    type Matches;
    fn matched(&self) -> usize;
}

pub struct Lines;

impl Lines {
    pub fn count(&self) -> usize {
        0
    }
}

impl Matches for Lines {
    fn count(&self) -> usize {
        1
    }
}

impl Sink for Lines {
    type Matches = Lines;
    fn matched(&self) -> usize {
        self.count()
    }
}

impl fmt::Display for Lines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Matches::count(self))
    }
}

pub fn total(l: &Lines) -> usize {
    l.count() + <Lines as Matches>::count(l)
}

pub struct Wrapper<S>(S);

impl<S: Sink> Sink for Wrapper<S> {
    type Matches = Lines;
    fn matched(&self) -> usize {
        self.0.matched()
    }
}

impl<S: Sink> Sink for &mut S {
    type Matches = Lines;
    fn matched(&self) -> usize {
        (**self).matched()
    }
}

impl<S: Sink + ?Sized> Sink for Box<S> {
    type Matches = Lines;
    fn matched(&self) -> usize {
        (**self).matched()
    }
}

pub trait Describe {
    fn describe(&self) -> String;
}

impl Describe for std::io::Error {
    fn describe(&self) -> String {
        self.to_string()
    }
}

impl<T: Sink> Describe for T {
    fn describe(&self) -> String {
        String::new()
    }
}

pub mod inner {
    pub struct Deep;
    mod x {
        impl super::Deep {
            pub fn go(&self) {}
        }
    }
}

pub mod outer {
    pub mod x {
        pub struct S;
        impl S {
            pub fn f(&self) {}
        }
    }
}

// The trait impl written before the inherent one: a method call still means the inherent
// method (rustc looks up inherent methods first).
pub struct Early;

impl Matches for Early {
    fn count(&self) -> usize {
        2
    }
}

impl Early {
    pub fn count(&self) -> usize {
        3
    }
}

pub fn early(e: &Early) -> usize {
    e.count()
}

// A function and a struct of one name (syn's `Lite`): a call by the imported name is the
// function's (the value namespace), a type use the struct's.
pub mod lite {
    pub struct Lite {
        pub value: u32,
    }

    #[allow(non_snake_case)]
    pub fn Lite(value: u32) -> Lite {
        Lite { value }
    }
}

pub mod uses_lite {
    use super::lite::Lite;

    pub fn make() -> Lite {
        Lite(1)
    }
}
