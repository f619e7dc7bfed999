//! The guess order: variables in a max-heap by activity.

/// A max-heap of variables by activity, with each one's place in it.
#[derive(Clone)]
pub(super) struct Heap {
    items: Vec<u32>,
    /// Per variable: its index in `items`, or `u32::MAX` when not in it.
    place: Vec<u32>,
}

impl Heap {
    pub(super) fn new(vars: usize) -> Heap {
        Heap {
            items: Vec::with_capacity(vars),
            place: vec![u32::MAX; vars],
        }
    }

    pub(super) fn insert(&mut self, v: usize, activity: &[f64]) {
        if self.place[v] != u32::MAX {
            return;
        }
        self.place[v] = self.items.len() as u32;
        self.items.push(v as u32);
        self.up(self.items.len() - 1, activity);
    }

    pub(super) fn raise(&mut self, v: usize, activity: &[f64]) {
        let at = self.place[v];
        if at != u32::MAX {
            self.up(at as usize, activity);
        }
    }

    pub(super) fn pop(&mut self, activity: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("not empty");
        self.place[top as usize] = u32::MAX;
        if !self.items.is_empty() {
            self.put(0, last);
            self.down(0, activity);
        }
        Some(top as usize)
    }

    fn up(&mut self, mut at: usize, activity: &[f64]) {
        let v = self.items[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            let p = self.items[parent];
            if activity[p as usize] >= activity[v as usize] {
                break;
            }
            self.put(at, p);
            at = parent;
        }
        self.put(at, v);
    }

    fn down(&mut self, mut at: usize, activity: &[f64]) {
        let v = self.items[at];
        let len = self.items.len();
        loop {
            let left = 2 * at + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len
                && activity[self.items[right] as usize] > activity[self.items[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.items[child];
            if activity[c as usize] <= activity[v as usize] {
                break;
            }
            self.put(at, c);
            at = child;
        }
        self.put(at, v);
    }

    /// Puts variable `v` at `at` in the heap.
    fn put(&mut self, at: usize, v: u32) {
        self.items[at] = v;
        self.place[v as usize] = at as u32;
    }
}
