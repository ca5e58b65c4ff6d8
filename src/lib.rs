//! toolpath: a conformance suite and executable reference spec for how
//! AI coding-agent tools handle path parameters.

pub mod protocol;
pub mod reference;
