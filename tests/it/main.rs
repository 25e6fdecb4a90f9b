//! The integration tests, as one test crate: each module was its own crate before, and each
//! crate got a full optimised link of the engine, which made `cargo test --release` spend
//! most of its time linking (issue 26).

mod common;

mod analyse;
mod cecp;
mod conversion;
mod lishogi;
mod match_runner;
mod mate;
mod perft;
mod position;
mod search;
mod session;
mod session_api;
mod session_property;
mod tune;
mod usi;
mod variant_data;
