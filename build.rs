//! Sets the `single_thread` cfg for a build with no threads at all: a WebAssembly target
//! other than a `-threads` one (wasm32-wasip1, the browser build for pages that are not
//! cross-origin isolated). The target's name tells: rustc's cfg for wasm32-wasip1 and
//! wasm32-wasip1-threads is the same. There the engine runs its session, its search and its input on
//! one thread (`session::single_thread`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(single_thread)");
    let family = std::env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let target = std::env::var("TARGET").unwrap_or_default();
    if family.split(',').any(|f| f == "wasm") && !target.ends_with("-threads") {
        println!("cargo::rustc-cfg=single_thread");
    }
}
