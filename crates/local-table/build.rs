//! The demo story is compiled in (`demo_story`); a file added to or changed in `assets/demo`
//! must rebuild this crate, which `include_dir!` alone cannot ask of cargo on stable.
fn main() {
    println!("cargo:rerun-if-changed=../../assets/demo");
}
