/** Word lists of the demo: names, streets and towns of Tamil Nadu, book titles; and the draw of a name pool. */
import type { Rng } from './prng';

/** First and family names go together by community, so that nobody is called 'Mohammed Iyer'. */
export interface NamePool {
  religion: string;
  /** Share of the demo population, in percent. */
  share: number;
  male: readonly string[];
  female: readonly string[];
  family: readonly string[];
}

export const namePools: readonly NamePool[] = [
  {
    religion: 'Hindu',
    share: 78,
    male: [
      'Arun', 'Karthik', 'Suresh', 'Ravi', 'Vijay', 'Senthil', 'Murugan', 'Prakash', 'Ganesh', 'Dinesh', 'Saravanan', 'Balaji',
      'Manikandan', 'Rajesh', 'Sathish', 'Vignesh', 'Harish', 'Ashwin', 'Pranav', 'Nithin', 'Rohit', 'Aditya', 'Surya', 'Gokul',
      'Kavin', 'Tamilselvan', 'Elango', 'Madhavan', 'Siddharth', 'Arjun', 'Krishna', 'Hari', 'Naveen', 'Yuvan', 'Dhanush',
      'Jeeva', 'Bharath', 'Kishore', 'Lokesh', 'Sanjay', 'Varun', 'Ajay', 'Deepak', 'Anand', 'Shankar', 'Venkatesh', 'Mithran',
    ],
    female: [
      'Priya', 'Divya', 'Lakshmi', 'Meena', 'Anitha', 'Kavitha', 'Deepa', 'Revathi', 'Saranya', 'Gayathri', 'Nandhini', 'Keerthana',
      'Harini', 'Swathi', 'Janani', 'Sangeetha', 'Vidhya', 'Shalini', 'Malathi', 'Sumathi', 'Bhuvana', 'Pavithra', 'Aishwarya',
      'Madhumitha', 'Kaviya', 'Dharshini', 'Yazhini', 'Tamilarasi', 'Kayal', 'Ilakkiya', 'Sneha', 'Pooja', 'Ananya', 'Shruti',
      'Nithya', 'Vaishnavi', 'Sowmya', 'Abinaya', 'Mahalakshmi', 'Rekha', 'Uma', 'Radha', 'Jayanthi', 'Selvi', 'Chitra', 'Geetha',
    ],
    family: [
      'Krishnan', 'Subramanian', 'Raman', 'Natarajan', 'Murugesan', 'Selvaraj', 'Pandian', 'Rajendran', 'Shanmugam', 'Ramasamy',
      'Palanisamy', 'Venkatesan', 'Sundaram', 'Arumugam', 'Kannan', 'Govindarajan', 'Balasubramanian', 'Chandrasekaran', 'Iyer',
      'Iyengar', 'Pillai', 'Nair', 'Menon', 'Reddy', 'Naidu', 'Chettiar', 'Mudaliar', 'Gounder', 'Nadar', 'Sharma',
    ],
  },
  {
    religion: 'Christian',
    share: 11,
    male: ['Joseph', 'John', 'David', 'Daniel', 'Samuel', 'George', 'Peter', 'Thomas', 'James', 'Paul', 'Stephen', 'Jerome', 'Arul', 'Jebaraj'],
    female: ['Mary', 'Sarah', 'Emily', 'Grace', 'Jennifer', 'Angel', 'Rachel', 'Esther', 'Sharon', 'Jasmine', 'Shirley', 'Jenifer', 'Evangeline'],
    family: ['Joseph', 'Thomas', 'Fernando', "D'Souza", 'Xavier', 'Samuel', 'Williams', 'Smith', 'Devadoss', 'Rajan', 'Gnanaraj', 'Jacob'],
  },
  {
    religion: 'Muslim',
    share: 9,
    male: ['Abdul', 'Imran', 'Faizal', 'Mohammed', 'Riyaz', 'Sameer', 'Ayaan', 'Irfan', 'Nawaz', 'Yusuf', 'Ashraf'],
    female: ['Fathima', 'Ayesha', 'Nazreen', 'Sameena', 'Rizwana', 'Shabana', 'Zainab', 'Asma', 'Nilofer', 'Sana'],
    family: ['Basha', 'Khan', 'Ibrahim', 'Rahman', 'Ali', 'Sheriff', 'Hussain', 'Ahmed'],
  },
  {
    religion: 'Jain',
    share: 2,
    male: ['Rahul', 'Amit', 'Vikas', 'Mahaveer', 'Nikhil'],
    female: ['Neha', 'Pooja', 'Komal', 'Ritu', 'Khushi'],
    family: ['Jain', 'Mehta', 'Bafna', 'Chordia', 'Kothari'],
  },
];

/** Streets, localities near the school (Anna Nagar, Chennai) with PIN codes. */
/** A name pool, drawn by the pools' shares of the school's families. */
export function pickPool(r: Rng): NamePool {
  let roll = r.next() * namePools.reduce((a, p) => a + p.share, 0);
  for (const p of namePools) {
    roll -= p.share;
    if (roll < 0) return p;
  }
  return namePools[0];
}

export const chennaiLocalities: readonly (readonly [string, string])[] = [
  ['Anna Nagar', '600040'], ['Anna Nagar West', '600101'], ['Mogappair', '600037'], ['Koyambedu', '600107'],
  ['Villivakkam', '600049'], ['Ambattur', '600053'], ['Padi', '600050'], ['Kilpauk', '600010'], ['Aminjikarai', '600029'],
  ['Shenoy Nagar', '600030'], ['Thirumangalam', '600040'], ['Kolathur', '600099'], ['Perambur', '600011'], ['Arumbakkam', '600106'],
  ['Vadapalani', '600026'], ['Maduravoyal', '600095'], ['Porur', '600116'], ['Avadi', '600054'],
];

/** Towns around the college (Coimbatore) its students come from, with PIN codes. */
export const kovaiTowns: readonly (readonly [string, string])[] = [
  ['Coimbatore', '641018'], ['Peelamedu, Coimbatore', '641004'], ['Singanallur, Coimbatore', '641005'], ['Pollachi', '642001'],
  ['Tiruppur', '641601'], ['Mettupalayam', '641301'], ['Sulur', '641402'], ['Annur', '641653'], ['Udumalaipettai', '642126'],
  ['Palladam', '641664'], ['Karamadai', '641104'], ['Erode', '638001'], ['Gobichettipalayam', '638452'], ['Ooty', '643001'],
];

export const streets = [
  'Gandhi Road', 'Nehru Street', 'Kamarajar Salai', 'Bharathiyar Street', 'Periyar Nagar Main Road', 'Anna Salai',
  'Vivekananda Street', 'Thiruvalluvar Street', 'Church Road', 'Mosque Street', 'Temple Street', 'Lake View Road',
  'Second Main Road', 'Third Cross Street', 'Rajaji Street', 'Subramania Bharathi Street', 'Ambedkar Street', 'VOC Street',
];

/** Book titles by category; every institute takes the categories it needs. */
export const bookShelves: Readonly<Record<string, readonly string[]>> = {
  "Children's Fiction": [
    'The Jungle Book', 'Panchatantra Stories', 'Tenali Raman Stories', 'Akbar and Birbal Tales', 'Malgudi Days', 'Swami and Friends',
    'The Blue Umbrella', "Alice's Adventures in Wonderland", 'Treasure Island', 'Jataka Tales', 'Heidi', 'The Wind in the Willows',
  ],
  Classics: [
    'Oliver Twist', 'Robinson Crusoe', "Gulliver's Travels", 'Black Beauty', 'Little Women', 'The Adventures of Tom Sawyer',
    'Around the World in Eighty Days', 'Pride and Prejudice', 'A Tale of Two Cities',
  ],
  'Tamil Literature': [
    'Thirukkural with English Translation', 'Ponniyin Selvan - Part 1', 'Ponniyin Selvan - Part 2', 'Sivagamiyin Sabatham',
    'Bharathiyar Kavithaigal', 'Aathichoodi for Children', 'Silappathikaram Retold', 'Parthiban Kanavu',
  ],
  Science: [
    'Science Experiments for Young Minds', 'The Story of Electricity', 'Our Solar System', 'Wings of Fire', 'Plants Around Us',
    'Simple Machines', 'The Human Body Explained',
  ],
  Mathematics: [
    'Fun with Numbers', 'Vedic Mathematics Made Easy', 'Mathematical Puzzles for Children', 'Geometry Workbook', 'Mental Maths Practice',
  ],
  'History and Geography': [
    'The Discovery of India', 'Freedom Struggle of India', 'Atlas of Tamil Nadu', 'The Chola Empire', 'Great Indian Leaders', 'Student Atlas of the World',
  ],
  'General Knowledge': ['General Knowledge Quiz Book', 'Famous Inventions', 'Amazing Animals', 'Flags of the World', 'Year Book of India'],
  Reference: [
    "Advanced Learner's Dictionary", 'English-Tamil Dictionary', "Children's Encyclopaedia - Volume 1", "Children's Encyclopaedia - Volume 2",
    'High School English Grammar and Composition', 'Thesaurus of English Words',
  ],
  'Computer Science': [
    'Programming in ANSI C', 'Data Structures Using C', 'Java: The Complete Reference', 'Database System Concepts', 'Computer Networking Essentials',
    'Operating System Concepts', 'Introduction to Algorithms', 'Python Programming for Beginners',
  ],
  Commerce: [
    'Advanced Accountancy', 'Cost Accounting Principles', 'Mercantile Law', 'Principles of Management', 'Business Statistics',
    'Banking Theory, Law and Practice', 'Modern Marketing',
  ],
  'English Literature': [
    'Hamlet', 'Macbeth', 'The Guide', 'Selected Poems of Wordsworth', 'A Passage to India', 'The Old Man and the Sea', 'Gitanjali', 'Kanthapura',
  ],
  'Competitive Examinations': [
    'TNPSC Group 4 Guide', 'Quantitative Aptitude', 'Verbal and Non-Verbal Reasoning', 'UPSC Prelims General Studies', 'Bank PO Guide',
  ],
  'Higher Mathematics': [
    'Calculus and Analytical Geometry', 'Higher Engineering Mathematics', 'Principles of Real Analysis', 'Linear Algebra Made Simple',
    'Differential Equations and Applications', 'Modern Algebra',
  ],
};
