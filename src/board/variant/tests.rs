use super::*;

#[test]
fn regions_read_in_both_forms_and_number_labels_in_order() {
    let chars = "aabb aabb ccdd ccdd";
    assert_eq!(
        read_regions(chars, None).unwrap(),
        (4, vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3])
    );
    let numbers = "7,7,3,3, 7,7,3,3, 10,10,1,1, 10,10,1,1";
    assert_eq!(
        read_regions(numbers, Some(4)).unwrap().1,
        read_regions(chars, None).unwrap().1
    );
    let error = read_regions("aabbaabbccddccde", None).unwrap_err();
    assert_eq!(error.field, "rules.regions");
    assert!(error.description.contains("region too many"), "{error}");
    assert!(read_regions("abc", None).is_err());
}

#[test]
fn each_rule_is_checked_where_it_is() {
    let shape = Shape::new(2, 2).unwrap();
    let broken = |variant: Variant| variant.check(shape).unwrap_err().field;
    let cage = |cells: Vec<u32>, sum| Cage { cells, sum };
    assert_eq!(
        broken(Variant {
            cages: vec![cage(vec![0, 1, 2, 3, 4], 0)],
            ..Variant::default()
        }),
        "rules.cages[0].cells"
    );
    assert_eq!(
        broken(Variant {
            cages: vec![cage(vec![0, 1], 2)],
            ..Variant::default()
        }),
        "rules.cages[0].sum"
    );
    assert_eq!(
        broken(Variant {
            thermometers: vec![vec![0, 5, 15]],
            ..Variant::default()
        }),
        "rules.thermometers[0].cells[2]"
    );
    assert_eq!(
        broken(Variant {
            windoku: true,
            ..Variant::default()
        }),
        "rules.windoku"
    );
    let split = vec![0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 3, 3, 2, 2, 3, 3];
    assert_eq!(
        broken(Variant {
            regions: Some(split),
            ..Variant::default()
        }),
        "rules.regions"
    );
    assert!(
        Variant {
            cages: vec![cage(vec![0, 1], 7)],
            ..Variant::default()
        }
        .check(shape)
        .is_ok()
    );
    assert_eq!(sum_range(3, 9), (6, 24));
}

#[test]
fn sizes_without_a_box_shape_have_no_canonical_shape() {
    assert_eq!(Shape::for_size(9), Some(Shape::CLASSIC));
    assert_eq!(Shape::for_size(6), Shape::new(2, 3).ok());
    assert_eq!(Shape::for_size(16), Shape::new(4, 4).ok());
    assert_eq!(Shape::for_size(7), None);
}
