//! The `Value` API: data model, accessors, JSON Pointer, options, conversions, writing.

use jitson::value::{self, Bump, DuplicateKeys, ParseOptions, Str, Value, WriteOptions};

#[test]
fn data_model() {
    let arena = Bump::new();
    let input = br#"[null, true, false, 0, 7, -7, -0, 1.5, 1e2, "s", [], {}, [1], {"k": "v"}]"#;
    let v = value::parse(input, &arena).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 14);
    assert!(items[0].is_null());
    assert_eq!(items[1].as_bool(), Some(true));
    assert_eq!(items[2].as_bool(), Some(false));
    assert!(matches!(items[3], Value::U64(0)));
    assert!(matches!(items[4], Value::U64(7)));
    assert!(matches!(items[5], Value::I64(-7)));
    assert!(matches!(items[6], Value::F64(x) if x == 0.0 && x.is_sign_negative()));
    assert!(matches!(items[7], Value::F64(1.5)));
    assert!(matches!(items[8], Value::F64(100.0)));
    assert_eq!(items[9].as_str(), Some("s"));
    assert_eq!(items[10].as_array(), Some(&[][..]));
    assert_eq!(items[11].as_object().map(<[_]>::len), Some(0));
    assert_eq!(items[13]["k"].as_str(), Some("v"));
    // Integer accessors convert across the two integer kinds where the value fits.
    assert_eq!(items[4].as_i64(), Some(7));
    assert_eq!(items[5].as_u64(), None);
    assert_eq!(items[5].as_f64(), Some(-7.0));
    assert_eq!(Value::U64(u64::MAX).as_i64(), None);
    assert_eq!(Value::BigNumber("1e400").as_f64(), Some(f64::INFINITY));
}

#[test]
fn strings_borrow_the_input_unless_unescaped() {
    let arena = Bump::new();
    let input = br#"{"plain": "text", "esc\naped": "a\u0041"}"#;
    let v = value::parse(input, &arena).unwrap();
    let members = v.as_object().unwrap();
    assert_eq!(members[0].0.offset_in(input), Some(2));
    assert_eq!(members[0].1.as_str(), Some("text"));
    if let Value::String(s) = members[0].1 {
        assert_eq!(s.offset_in(input), Some(11));
    }
    assert_eq!(members[1].0, "esc\naped");
    assert_eq!(members[1].0.offset_in(input), None);
    assert_eq!(members[1].1.as_str(), Some("aA"));
    assert_eq!(Str::new("x").as_str(), "x");
    assert_eq!(
        format!("{:?} {}", members[1].0, members[1].0),
        "\"esc\\naped\" esc\naped"
    );
}

#[test]
fn objects_keep_document_order_and_one_member_per_key() {
    let arena = Bump::new();
    let v = value::parse(br#"{"b":1,"a":2,"b":3,"c":4,"b":5}"#, &arena).unwrap();
    // The first position of "b", the last value.
    assert_eq!(v.to_string(), r#"{"b":5,"a":2,"c":4}"#);
    // The same past the hash-table threshold.
    let mut big = String::from("{");
    for i in 0..150 {
        big.push_str(&format!("\"k{i}\":{i},"));
    }
    big.push_str("\"k3\":\"last\",\"k149\":null}");
    let v = value::parse(big.as_bytes(), &arena).unwrap();
    let members = v.as_object().unwrap();
    assert_eq!(members.len(), 150);
    assert_eq!(members[3].0, "k3");
    assert_eq!(members[3].1.as_str(), Some("last"));
    assert!(members[149].1.is_null());
    // Nested objects each keep their own keys.
    let v = value::parse(br#"{"a":{"a":1,"a":2},"a":{"b":3}}"#, &arena).unwrap();
    assert_eq!(v.to_string(), r#"{"a":{"b":3}}"#);
    // Denying duplicates accepts distinct keys.
    let deny = ParseOptions::new().duplicate_keys(DuplicateKeys::Deny);
    assert!(value::parse_with(big.as_bytes(), &arena, &deny).is_err());
    assert!(value::parse_with(br#"{"a":{"a":1},"b":{"a":2}}"#, &arena, &deny).is_ok());
}

#[test]
fn accessors_and_json_pointer() {
    let arena = Bump::new();
    let input = br#"{"statuses":[{"user":{"id":7}}],"a/b":1,"m~n":2,"":3,"01":4}"#;
    let v = value::parse(input, &arena).unwrap();
    assert_eq!(v["statuses"][0]["user"]["id"].as_u64(), Some(7));
    assert!(v["missing"][3].is_null());
    assert_eq!(v.get("a/b").and_then(Value::as_u64), Some(1));
    assert_eq!(v.get_index(0), None);
    assert_eq!(
        v["statuses"].get_index(0).map(|u| u["user"]["id"].as_u64()),
        Some(Some(7))
    );
    let at = |p: &str| v.pointer(p).map(|x| x.to_string());
    assert_eq!(at(""), Some(v.to_string()));
    assert_eq!(at("/statuses/0/user/id").as_deref(), Some("7"));
    assert_eq!(at("/a~1b").as_deref(), Some("1"));
    assert_eq!(at("/m~0n").as_deref(), Some("2"));
    assert_eq!(at("/").as_deref(), Some("3"));
    assert_eq!(at("/01").as_deref(), Some("4"));
    assert_eq!(at("/statuses/00"), None);
    assert_eq!(at("/statuses/-"), None);
    assert_eq!(at("/statuses/1"), None);
    assert_eq!(at("/m~2n"), None);
    assert_eq!(at("statuses"), None);
    assert_eq!(at("/statuses/0/user/id/x"), None);
}

#[test]
fn lossy_strings() {
    let arena = Bump::new();
    let input = b"[\"a\xffb\", \"\\uD800\", \"\\uDC00x\\uD83D\\uDE00\"]";
    assert!(value::parse(input, &arena).is_err());
    let v = value::parse_with(input, &arena, &ParseOptions::new().lossy(true)).unwrap();
    assert_eq!(v[0].as_str(), Some("a\u{fffd}b"));
    assert_eq!(v[1].as_str(), Some("\u{fffd}"));
    assert_eq!(v[2].as_str(), Some("\u{fffd}x😀"));
}

#[test]
fn equality_is_structural() {
    let arena = Bump::new();
    let a = value::parse(br#"{"a":[1,-2,3.5,"x",null]}"#, &arena).unwrap();
    let b = value::parse(b"{ \"a\" : [ 1 , -2 , 3.5 , \"\\u0078\" , null ] }", &arena).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, value::parse(br#"{"a":[1,-2,3.5,"x"]}"#, &arena).unwrap());
    assert_ne!(Value::U64(1), Value::F64(1.0));
    assert_eq!(Value::U64(1), Value::I64(1));
    assert_eq!(Value::F64(0.0), Value::F64(-0.0));
    // Member order matters.
    assert_ne!(
        value::parse(br#"{"a":1,"b":2}"#, &arena).unwrap(),
        value::parse(br#"{"b":2,"a":1}"#, &arena).unwrap()
    );
}

#[test]
fn serde_json_round_trip() {
    let arena = Bump::new();
    let input = br#"{"z":[1,-1,0.5,"s",true,null,{}],"a":{"nested":[[]]}}"#;
    let theirs: serde_json::Value = serde_json::from_slice(input).unwrap();
    let ours = value::parse(input, &arena).unwrap();
    assert_eq!(ours.to_serde(), theirs);
    assert_eq!(serde_json::Value::from(ours), theirs);
    let back = Value::from_serde(&theirs, &arena);
    // serde_json sorted the keys.
    assert_eq!(
        back.to_string(),
        r#"{"a":{"nested":[[]]},"z":[1,-1,0.5,"s",true,null,{}]}"#
    );
    assert_eq!(serde_json::Value::from(&back), theirs);
    // Non-finite floats become null; big numbers the nearest f64 or their raw text.
    assert_eq!(Value::F64(f64::NAN).to_serde(), serde_json::Value::Null);
    assert_eq!(
        Value::BigNumber("1e400").to_serde(),
        serde_json::json!("1e400")
    );
    assert_eq!(
        Value::BigNumber("18446744073709551616").to_serde(),
        serde_json::json!(18446744073709551616.0)
    );
}

#[test]
fn deep_values_convert_and_write_without_recursion() {
    let arena = Bump::new();
    let depth = 100_000;
    let input = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let v = value::parse_with(
        input.as_bytes(),
        &arena,
        &ParseOptions::new().max_depth(depth),
    )
    .unwrap();
    assert_eq!(v.to_vec(), input.as_bytes());
    // serde_json's Value drops recursively, so stop well short of its stack limit here.
    let shallow = format!("{}1{}", "[{\"k\":".repeat(1000), "}]".repeat(1000));
    let v = value::parse_with(
        shallow.as_bytes(),
        &arena,
        &ParseOptions::new().max_depth(4000),
    )
    .unwrap();
    let converted = v.to_serde();
    assert_eq!(Value::from_serde(&converted, &arena), v);
    assert_eq!(
        v.to_vec_pretty(),
        serde_json::to_vec_pretty(&converted).unwrap()
    );
}

#[test]
fn pretty_output_matches_serde_json() {
    let arena = Bump::new();
    let input = br#"{"a":[1,{"b":[],"c":{}},[2,[3]]],"d":"\u00e9\n"}"#;
    let ours = value::parse(input, &arena).unwrap();
    let theirs: serde_json::Value = serde_json::from_slice(input).unwrap();
    assert_eq!(
        ours.to_vec_pretty(),
        serde_json::to_vec_pretty(&theirs).unwrap()
    );
    let mut out = Vec::new();
    ours.write(&mut out, &WriteOptions::new().pretty(true));
    assert_eq!(out, ours.to_vec_pretty());
    assert!(WriteOptions::new().pretty(true).get_pretty());
}
